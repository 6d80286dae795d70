internal import COpenSSL
import FileAccess
import FoundationEssentials

/// Apple's list of trusted CT logs as a snapshot directory holds it (`apple-ct-logs.cnf`, docs/platform-stores.md):
/// OpenSSL's CT log file (`CTLOG_STORE_load_file` reads `enabled_logs` and each log's `description` and `key`, so
/// OpenSSL checks the SCT signatures) with what trustd keeps beside each log (BuildTrustedCTLogsPlist.py): its
/// operator, the time it turned read-only or retired, and the expiry dates of the certificates it takes.
public final class CTLogList: @unchecked Sendable {
    /// One log the list trusts.
    public struct Log: Sendable {
        public let id: [UInt8]
        public let description: String
        public let operatorName: String
        /// trustd's "frozen": SCTs after it do not count.
        public let readOnlySince: Date?
        /// trustd's "expiry": only SCTs before it, embedded in certificates issued before it, count.
        public let retiredSince: Date?
        /// A temporally sharded log takes certificates that expire in [start, end).
        public let shardStart: Date?
        public let shardEnd: Date?
    }

    /// The day of the list (the commit date of the security_certificates tag it came from).
    public let date: Date
    public let dateText: String
    /// Where the list came from: repository, commit, tag.
    public let source: String
    /// The logs by id (the SHA-256 of the log's key).
    let logs: [[UInt8]: Log]
    /// The pending and rejected logs the list names, by id: their name and state ("rejected 2022-05-02T17:41:23Z").
    let untrusted: [[UInt8]: (name: String, state: String)]

    public var trustedCount: Int { logs.count }
    public var untrustedCount: Int { untrusted.count }
    /// The same logs as OpenSSL's store, which `SCT_validate` looks logs up in. Only read after loading, so shared
    /// between threads.
    let store: OpaquePointer

    /// Reads the list at `path`; a file that cannot be read, or a log OpenSSL or pinctl cannot take, is an error
    /// naming the file and the log.
    public init(path: String) throws(CTLogListError) {
        let bytes: [UInt8]
        do {
            bytes = try FileInput.read(path)
        } catch {
            throw CTLogListError("\(path): \(error.reason)")
        }
        guard let conf = NCONF_new(nil) else { fatalError("NCONF_new: out of memory") }
        defer { NCONF_free(conf) }
        var errorLine = -1
        let loaded = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return 0 }
            defer { BIO_free(bio) }
            return NCONF_load_bio(conf, bio, &errorLine)
        }
        guard loaded > 0 else {
            OpenSSLError.clearQueue()
            throw CTLogListError("\(path):\(errorLine): not an OpenSSL CT log file; \(CTLogListError.rebuild)")
        }
        func value(_ section: String?, _ name: String) -> String? {
            defer { OpenSSLError.clearQueue() }
            return NCONF_get_string(conf, section, name).map { String(cString: $0) }
        }
        func time(_ section: String?, _ name: String) throws(CTLogListError) -> Date? {
            guard let text = value(section, name) else { return nil }
            guard let date = Self.date(text) else {
                throw CTLogListError("\(path): [\(section ?? "")] \(name) = \(text): not a time YYYY-MM-DDTHH:MM:SSZ")
            }
            return date
        }
        guard let dateText = value(nil, "list_date"), let date = Self.date(dateText + "T00:00:00Z"),
              let source = value(nil, "list_source"), let enabled = value(nil, "enabled_logs")
        else {
            throw CTLogListError("\(path): needs list_date (YYYY-MM-DD), list_source and enabled_logs; "
                + CTLogListError.rebuild)
        }
        func id(_ name: String) throws(CTLogListError) -> [UInt8] {
            guard let key = value(name, "key"), let der = Data(base64Encoded: key), !der.isEmpty else {
                throw CTLogListError("\(path): log [\(name)] has no base64 key")
            }
            return Digest.sha256([UInt8](der))
        }
        func names(_ list: String) -> [String] {
            list.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
        }
        var untrusted: [[UInt8]: (name: String, state: String)] = [:]
        for name in names(value(nil, "untrusted_logs") ?? "") {
            untrusted[try id(name)] = (value(name, "description") ?? name, value(name, "untrusted") ?? "untrusted")
        }
        var logs: [[UInt8]: Log] = [:]
        for name in names(enabled) {
            let id = try id(name)
            logs[id] = Log(id: id, description: value(name, "description") ?? name,
                           operatorName: value(name, "operator") ?? "", readOnlySince: try time(name, "readonly"),
                           retiredSince: try time(name, "retired"), shardStart: try time(name, "shard_start"),
                           shardEnd: try time(name, "shard_end"))
        }
        guard let store = CTLOG_STORE_new() else { fatalError("CTLOG_STORE_new: out of memory") }
        guard CTLOG_STORE_load_file(store, path) == 1 else {
            let queue = OpenSSLError.drainQueue()
            CTLOG_STORE_free(store)
            throw CTLogListError("\(path): OpenSSL cannot load it as a CT log file (\(queue.joined(separator: "; ")))")
        }
        self.date = date
        self.dateText = dateText
        self.source = source
        self.logs = logs
        self.untrusted = untrusted
        self.store = store
    }

    deinit { CTLOG_STORE_free(store) }

    /// `2025-06-01T00:00:00Z`, read by OpenSSL as the GeneralizedTime `20250601000000Z`.
    static func date(_ text: String) -> Date? {
        let compact = text.filter { $0 != "-" && $0 != ":" && $0 != "T" }
        guard text.count == 20, compact.count == 15, compact.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "Z") }),
              let time = ASN1_TIME_new()
        else { return nil }
        defer { ASN1_TIME_free(time) }
        var parts = tm()
        guard ASN1_TIME_set_string_X509(time, compact) == 1, ASN1_TIME_to_tm(time, &parts) == 1 else {
            OpenSSLError.clearQueue()
            return nil
        }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}

/// A CT log list pinctl cannot use.
public struct CTLogListError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }

    static let rebuild = "rebuild the snapshots with scripts/build-stores.sh"
}
