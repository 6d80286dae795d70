import FileAccess
import FoundationEssentials
import Synchronization

/// Apple's list of trusted CT logs as a snapshot directory holds it (`apple-ct-logs.cnf`, docs/platform-stores.md):
/// OpenSSL's CT log file format (`enabled_logs`, each log's `description` and `key`) with what trustd keeps beside
/// each log (BuildTrustedCTLogsPlist.py): its operator, the time it turned read-only or retired, and the expiry dates
/// of the certificates it takes. pinctl reads it as data (`CTLogListSyntax`, `CTLogListFile`) and gives OpenSSL only
/// the checked keys (`CTLogStore`), so OpenSSL checks the SCT signatures.
public final class CTLogList: Sendable {
    /// One log the list trusts.
    public struct Log: Sendable {
        public let id: [UInt8]
        /// Canonical base64 of the key's DER SubjectPublicKeyInfo.
        public let keyBase64: String
        /// As the list gives it, its escapes read: text, never configuration.
        public let description: String
        public let operatorName: String
        /// trustd's "frozen": SCTs after it do not count.
        public let readOnlySince: Date?
        /// trustd's "expiry": only SCTs before it, embedded in certificates issued before it, count.
        public let retiredSince: Date?
        /// A temporally sharded log takes certificates that expire in [start, end).
        public let shardStart: Date?
        public let shardEnd: Date?

        /// The log as messages name it: its description, and its operator when the list gives one.
        public var name: String { operatorName.isEmpty ? description : "\(description) (\(operatorName))" }
    }

    /// The day of the list (the commit date of the security_certificates tag it came from).
    public let date: Date
    public let dateText: String
    /// Where the list came from: repository, commit, tag.
    public let source: String
    /// The logs by id (the SHA-256 of the log's key).
    package let logs: [[UInt8]: Log]
    /// The pending and rejected logs the list names, by id: their name and state ("rejected 2022-05-02T17:41:23Z").
    package let untrusted: [[UInt8]: (name: String, state: String)]

    /// The SHA-256 of the list's bytes: two lists judge alike when they are the same.
    public let contentDigest: [UInt8]

    public var trustedCount: Int { logs.count }
    public var untrustedCount: Int { untrusted.count }
    /// OpenSSL's stores of trusted logs, each holding the logs one chain's SCTs name, by their ids: made when first
    /// needed. Decoding a key into OpenSSL's store costs about 20 µs and the list trusts 49 logs, while a chain's SCTs
    /// name two or three, so a store of every log was most of what judging on Apple's versions cost (#33).
    private let stores = Mutex(BoundedMemory<[[UInt8]], CTLogStore>(capacity: 64))
    /// A leaf's embedded SCTs as judged against this list (`SCTs.embedded`), by the leaf, its issuer and the time.
    struct EmbeddedKey: Hashable {
        let leaf: [UInt8]
        let issuer: [UInt8]?
        let time: Date
    }
    let embedded = Mutex(BoundedMemory<EmbeddedKey, [SCTs.SCT]>(capacity: 256))
    /// How many leaves' SCTs were answered from memory, for tests.
    package var embeddedHits: Int { embedded.withLock { $0.hits } }
    /// The list's path, which errors name.
    private let path: String
    /// Whether OpenSSL reads its stores from files in memory rather than in a temporary directory (`CTLogStore`).
    private let storesInMemory: Bool

    /// Reads the list at `path`; a file that cannot be read, or a line or log pinctl cannot take, is an error naming
    /// the file and the line.
    public convenience init(path: String) throws(CTLogListError) {
        let bytes: [UInt8]
        do {
            bytes = try FileInput.read(path)
        } catch {
            throw CTLogListError("\(path): \(error.reason)")
        }
        try self.init(bytes: bytes, path: path)
    }

    /// Reads the list `bytes`, which errors name `path`. Every trusted key must read in OpenSSL now, and a store must
    /// be writable, though stores are made later: a key OpenSSL cannot take is named at its line.
    /// `storesInMemory`: false writes OpenSSL's stores to a temporary directory even where the system has files in
    /// memory, for the tests of that way.
    package init(bytes: [UInt8], path: String, storesInMemory: Bool = true) throws(CTLogListError) {
        self.storesInMemory = storesInMemory && CTLogStore.memoryFiles
        // Keys read by OpenSSL's built-in EC and RSA methods are written back by them too: without, each key written
        // back (`i2d_PUBKEY`, to compare and for OpenSSL's log id) searched every provider's encoders, 35 µs a key,
        // when a policy file's list was read before any certificate installed them.
        BuiltinKeyMethods.install()
        let file = try CTLogListFile(try CTLogListSyntax(bytes, path: path), path: path)
        if let refused = file.refusedKey(path: path) { throw refused }
        if !self.storesInMemory { try CTLogStore.checkTemporaryDirectory(list: path) }
        self.path = path
        contentDigest = Digest.sha256(bytes)
        date = file.date
        dateText = file.dateText
        source = file.source
        logs = Dictionary(file.trusted.map { ($0.log.id, $0.log) }) { first, _ in first }
        untrusted = Dictionary(file.untrusted.map { ($0.log.id, ($0.log.description, $0.state ?? "untrusted")) }) {
            first, _ in first
        }
    }

    /// OpenSSL's store of the trusted logs among `ids` (the logs a chain's SCTs name; others it does not trust are
    /// left out, so OpenSSL finds them unknown as with every log in the store).
    func store(for ids: [[UInt8]]) throws(CTLogListError) -> CTLogStore {
        let wanted = Set(ids.filter { logs[$0] != nil }).sorted { $0.lexicographicallyPrecedes($1) }
        if let known = stores.withLock({ $0.value(for: wanted) }) { return known }
        let store = try CTLogStore(keys: wanted.map { logs[$0]!.keyBase64 }, ids: wanted, list: path,
                                   inMemory: storesInMemory)
        stores.withLock { $0.remember(store, for: wanted) }
        return store
    }
}

/// A CT log list pinctl cannot use.
public struct CTLogListError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }

    static let rebuild = "rebuild the snapshots with scripts/build-stores.sh"
}
