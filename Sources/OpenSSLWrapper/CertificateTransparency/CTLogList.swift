import FileAccess
import FoundationEssentials

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

    public var trustedCount: Int { logs.count }
    public var untrustedCount: Int { untrusted.count }
    /// The trusted logs as OpenSSL's store, which `SCT_validate` looks logs up in.
    let store: CTLogStore

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

    /// Reads the list `bytes`, which errors name `path`.
    package init(bytes: [UInt8], path: String) throws(CTLogListError) {
        let file = try CTLogListFile(try CTLogListSyntax(bytes, path: path), path: path)
        do {
            store = try CTLogStore(keys: file.trusted.map(\.log.keyBase64), ids: file.trusted.map(\.log.id),
                                   list: path)
        } catch {
            // A key OpenSSL cannot take is named at its line; any other failure as OpenSSL gave it.
            throw file.refusedKey(path: path) ?? error
        }
        date = file.date
        dateText = file.dateText
        source = file.source
        logs = Dictionary(file.trusted.map { ($0.log.id, $0.log) }) { first, _ in first }
        untrusted = Dictionary(file.untrusted.map { ($0.log.id, ($0.log.description, $0.state ?? "untrusted")) }) {
            first, _ in first
        }
    }
}

/// A CT log list pinctl cannot use.
public struct CTLogListError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }

    static let rebuild = "rebuild the snapshots with scripts/build-stores.sh"
}
