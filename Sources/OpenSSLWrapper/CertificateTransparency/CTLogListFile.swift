internal import COpenSSL
import FoundationEssentials
import Transport

/// The logs of `apple-ct-logs.cnf` (docs/platform-stores.md), every value checked: log names of letters, digits and
/// `_`, each listed once and with its section; keys strict base64 of a DER SubjectPublicKeyInfo that OpenSSL reads
/// and writes back to the same bytes (so the SHA-256 pinctl takes as the log id is the one OpenSSL takes); times
/// `YYYY-MM-DDTHH:MM:SSZ` that exist; descriptions and operators short printable text.
struct CTLogListFile {
    /// One log of either list.
    struct Entry {
        let log: CTLogList.Log
        /// Pending or rejected logs: `rejected 2022-05-02T17:41:23Z`; nil for a trusted log.
        let state: String?
        /// The log's section name and the line of its key, which `refusedKey` names.
        let section: String
        let keyLine: Int
        /// The key's bytes, which OpenSSL must read back the same (`refusedKey`).
        let der: [UInt8]
    }

    let date: Date
    let dateText: String
    let source: String
    /// The logs of `enabled_logs`, which trustd trusts.
    let trusted: [Entry]
    /// The logs of `untrusted_logs`, named when an SCT is from one.
    let untrusted: [Entry]

    static let maximumTextLength = 256
    /// An RSA key of 16384 bits takes 2.8 kB in base64.
    static let maximumKeyLength = 4096

    init(_ syntax: CTLogListSyntax, path: String) throws(CTLogListError) {
        let top = Dictionary(syntax.top.map { ($0.key, $0) }) { first, _ in first }
        func fail(_ line: Int, _ reason: String) -> CTLogListError { CTLogListError("\(path):\(line): \(reason)") }
        guard let dateEntry = top["list_date"], let sourceEntry = top["list_source"], let enabled = top["enabled_logs"]
        else {
            throw CTLogListError("\(path): needs list_date (YYYY-MM-DD), list_source and enabled_logs before the "
                + "first section; \(CTLogListError.rebuild)")
        }
        guard let date = Self.time(dateEntry.value + "T00:00:00Z") else {
            throw fail(dateEntry.line, "list_date is not a day YYYY-MM-DD")
        }
        dateText = dateEntry.value
        self.date = date
        source = try Self.text(sourceEntry, fail)
        let trustedNames = try Self.names(enabled, fail)
        let untrustedNames = try top["untrusted_logs"].map { entry throws(CTLogListError) in try Self.names(entry, fail) }
        let sections = Dictionary(syntax.sections.map { ($0.name, $0) }) { first, _ in first }
        var listed: [String: Int] = [:]
        for (name, line) in trustedNames + (untrustedNames ?? []) {
            if listed[name] != nil { throw fail(line, "log \(name) is listed twice") }
            guard sections[name] != nil else { throw fail(line, "log \(name) has no section [\(name)]") }
            listed[name] = line
        }
        for section in syntax.sections where listed[section.name] == nil {
            throw fail(section.line, "section [\(section.name)] is in neither enabled_logs nor untrusted_logs")
        }
        var ids: [[UInt8]: String] = [:]
        func entries(_ names: [(String, Int)], trusted: Bool) throws(CTLogListError) -> [Entry] {
            var entries: [Entry] = []
            for (name, _) in names {
                guard let section = sections[name] else { continue }
                let entry = try Self.entry(section, trusted: trusted, fail)
                if let other = ids[entry.log.id] {
                    throw fail(section.line, "log [\(name)] has the same key as [\(other)]")
                }
                ids[entry.log.id] = name
                entries.append(entry)
            }
            return entries
        }
        trusted = try entries(trustedNames, trusted: true)
        untrusted = try entries(untrustedNames ?? [], trusted: false)
    }

    /// A log's section: `description` and `key`; `operator`; for a trusted log, its state's time and shard, for
    /// an untrusted one, `untrusted`.
    private static func entry(_ section: CTLogListSyntax.Section, trusted: Bool,
                              _ fail: (Int, String) -> CTLogListError) throws(CTLogListError) -> Entry {
        let values = Dictionary(section.entries.map { ($0.key, $0) }) { first, _ in first }
        let place = "log [\(section.name)]"
        if let wrong = section.entries.first(where: { (trusted ? onlyUntrusted : onlyTrusted).contains($0.key) }) {
            throw fail(wrong.line, "\(place) is \(trusted ? "in enabled_logs" : "untrusted") and cannot have "
                + wrong.key)
        }
        guard let description = values["description"], let key = values["key"] else {
            throw fail(section.line, "\(place) needs a description and a key")
        }
        // A trusted log's key goes to OpenSSL, which must read it as pinctl does (the same id): `CTLogList` has every
        // such key read back once the list is read (`refusedKey`), and `CTLogStore` checks that it holds each log by
        // the id taken here. An untrusted log's key only names the log an SCT came from, by the SHA-256 of its bytes.
        guard let der = canonicalBase64(key.value) else {
            let expected = trusted ? "base64 of a DER SubjectPublicKeyInfo OpenSSL reads" : "canonical base64"
            throw fail(key.line, "\(place) key is not \(expected)")
        }
        func time(_ name: String) throws(CTLogListError) -> Date? {
            guard let entry = values[name] else { return nil }
            guard let date = Self.time(entry.value) else {
                throw fail(entry.line, "\(place) \(name) is not a time YYYY-MM-DDTHH:MM:SSZ")
            }
            return date
        }
        let readOnly = try time("readonly")
        let retired = try time("retired")
        let start = try time("shard_start")
        let end = try time("shard_end")
        if readOnly != nil, retired != nil { throw fail(section.line, "\(place) is both readonly and retired") }
        if (start == nil) != (end == nil) || start.flatMap({ start in end.map { start >= $0 } }) == true {
            throw fail(section.line, "\(place) needs shard_start before shard_end, or neither")
        }
        var state: String?
        if !trusted {
            guard let entry = values["untrusted"] else { throw fail(section.line, "\(place) needs untrusted") }
            let parts = entry.value.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "pending" || parts[0] == "rejected", Self.time(String(parts[1])) != nil
            else { throw fail(entry.line, "\(place) untrusted is not `pending TIME` or `rejected TIME`") }
            state = entry.value
        }
        let descriptionText = try text(description, fail)
        let log = CTLogList.Log(
            id: Digest.sha256(der), keyBase64: key.value,
            description: descriptionText.isEmpty ? section.name : descriptionText,
            operatorName: try values["operator"].map { entry throws(CTLogListError) in try text(entry, fail) } ?? "",
            readOnlySince: readOnly, retiredSince: retired, shardStart: start, shardEnd: end)
        return Entry(log: log, state: state, section: section.name, keyLine: key.line, der: der)
    }

    /// The first trusted log whose key OpenSSL does not read, or reads as other bytes than the list's, as the error
    /// naming its line; nil when OpenSSL reads every key back the same.
    func refusedKey(path: String) -> CTLogListError? {
        let keys = trusted.map(\.der)
        // Every Apple version waits for the list: the second half is read on another thread, each with its curve.
        let refused = JoinableThread.inHalves(of: keys.count, minimum: 8) { range in
            let curve = P256Curve()
            return range.first { !(curve?.readsBack(keys[$0]) ?? Self.readsBack(keys[$0])) }
        }.lazy.compactMap { $0 }.first
        return refused.map { index in
            CTLogListError("\(path):\(trusted[index].keyLine): log [\(trusted[index].section)] key is not base64 of a "
                + "DER SubjectPublicKeyInfo OpenSSL reads")
        }
    }

    /// The keys only an untrusted log's section has, and those only a trusted log's has.
    private static let onlyUntrusted: Set = ["untrusted"]
    private static let onlyTrusted: Set = ["readonly", "retired", "shard_start", "shard_end"]

    /// A list of log names, `log1,log2` (empty for none).
    private static func names(_ entry: CTLogListSyntax.Entry, _ fail: (Int, String) -> CTLogListError)
        throws(CTLogListError) -> [(String, Int)] {
        guard !entry.value.isEmpty else { return [] }
        var names: [(String, Int)] = []
        for name in entry.value.split(separator: ",", omittingEmptySubsequences: false) {
            guard CTLogListSyntax.isName(name) else {
                throw fail(entry.line, "\(entry.key) holds a name that is not 1 to "
                    + "\(CTLogListSyntax.maximumNameLength) letters, digits or _ (names are separated by `,` alone)")
            }
            names.append((String(name), entry.line))
        }
        return names
    }

    private static func text(_ entry: CTLogListSyntax.Entry, _ fail: (Int, String) -> CTLogListError)
        throws(CTLogListError) -> String {
        guard entry.value.unicodeScalars.count <= maximumTextLength else {
            throw fail(entry.line, "\(entry.key) is longer than \(maximumTextLength) characters")
        }
        return entry.value
    }

    /// The bytes of canonical base64 (what `base64EncodedString` writes back the same), none of them too many.
    static func canonicalBase64(_ base64: String) -> [UInt8]? {
        guard base64.utf8.count <= maximumKeyLength, let data = Data(base64Encoded: base64),
              data.base64EncodedString() == base64, !data.isEmpty
        else { return nil }
        // Copied as one buffer: Array(data) copies byte by byte through Data's iterator.
        return data.withUnsafeBytes { [UInt8]($0) }
    }

    /// Whether OpenSSL reads `der` as a public key and writes it back the same.
    static func readsBack(_ der: [UInt8]) -> Bool {
        let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            // d2i_PUBKEY returns a new key (freed below) and moves the cursor past what it read.
            guard let key = d2i_PUBKEY(nil, &cursor, buffer.count) else { return nil }
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        guard let key else {
            OpenSSLError.clearQueue()
            return false
        }
        defer { EVP_PKEY_free(key) }
        guard let written = try? X509Certificate.encode("encode public key", { i2d_PUBKEY(key, $0) }),
              written == der
        else {
            OpenSSLError.clearQueue()
            return false
        }
        return true
    }

    /// `-`, `T`, `:` and `Z` where a time has them, 0 where it has a digit.
    private static let timeSeparators: [UInt8] = [0, 0, 0, 0, 0x2D, 0, 0, 0x2D, 0, 0, 0x54, 0, 0, 0x3A, 0, 0, 0x3A, 0, 0,
                                                  0x5A]

    /// `2025-06-01T00:00:00Z` exactly, a time that exists (no 30 February, no second 60).
    static func time(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 else { return nil }
        for (index, byte) in bytes.enumerated() {
            let separator = timeSeparators[index]
            guard separator == 0 ? byte >= 0x30 && byte <= 0x39 : byte == separator else { return nil }
        }
        func number(_ from: Int, _ count: Int) -> Int32 {
            bytes[from..<from + count].reduce(0) { $0 * 10 + Int32($1 - 0x30) }
        }
        var parts = tm()
        parts.tm_year = number(0, 4) - 1900
        parts.tm_mon = number(5, 2) - 1
        parts.tm_mday = number(8, 2)
        parts.tm_hour = number(11, 2)
        parts.tm_min = number(14, 2)
        parts.tm_sec = number(17, 2)
        let wanted = [parts.tm_year, parts.tm_mon, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec]
        var seconds = timegm(&parts)
        var back = tm()
        // timegm normalises out-of-range fields (31 April is 1 May): a time that exists reads back unchanged.
        guard number(0, 4) >= 1, gmtime_r(&seconds, &back) != nil,
              [back.tm_year, back.tm_mon, back.tm_mday, back.tm_hour, back.tm_min, back.tm_sec] == wanted
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
