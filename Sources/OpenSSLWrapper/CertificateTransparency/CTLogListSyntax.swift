import TextSyntax

/// The lines of `apple-ct-logs.cnf` read as data, the way scripts/build_stores.py writes them: `# comment` lines,
/// blank lines, `KEY = VALUE` before the first section, `[NAME]` sections, `KEY = VALUE` in them.
///
/// The file has OpenSSL's CT log file syntax, but it is never handed to OpenSSL's configuration parser, which expands
/// `$NAME` and `$ENV::NAME`, follows `.include` to any file (a FIFO blocks it for ever) and can take gigabytes
/// expanding variables. Here a value is text: the builder's escapes (`\\`, `\"`, `\'`, `\$`, `\#`) are the
/// characters they escape, `$` is a character, and a directive, a quote or `#` that is not escaped, or a key the
/// builder does not write is an error at its line. Size, line length and section count are bounded.
struct CTLogListSyntax {
    /// One `KEY = VALUE` line, its value unescaped.
    struct Entry {
        let key: String
        let value: String
        let line: Int
    }

    struct Section {
        let name: String
        let line: Int
        var entries: [Entry] = []
    }

    /// The entries before the first section.
    private(set) var top: [Entry] = []
    private(set) var sections: [Section] = []
    /// Each section's line, by name: a list of 132 logs compared every name with every earlier one.
    private var sectionLines: [String: Int] = [:]

    /// Apple's list of 2025 takes 35 kB for 132 logs.
    static let maximumSize = 1 << 20
    /// `enabled_logs` of `maximumLogs` names of `maximumNameLength` characters fits.
    static let maximumLineLength = 64 * 1024
    static let maximumLogs = 1000
    static let maximumNameLength = 32

    static let topKeys = ["list_date", "list_source", "enabled_logs", "untrusted_logs"]
    static let sectionKeys = ["description", "key", "operator", "readonly", "retired", "shard_start", "shard_end",
                              "untrusted"]

    init(_ bytes: [UInt8], path: String) throws(CTLogListError) {
        guard bytes.count <= Self.maximumSize else {
            throw CTLogListError("\(path): larger than \(Self.maximumSize >> 10) KiB, which no CT log list comes near; "
                + CTLogListError.rebuild)
        }
        if let line = UntrustedText.nulByteLine(in: bytes) {
            throw CTLogListError("\(path):\(line): \(UntrustedText.nulByteReason)")
        }
        // A file of valid UTF-8 has lines of valid UTF-8 (they end at a newline, which is ASCII): checked line by
        // line only to name the line that is not.
        let valid = String(validating: bytes, as: UTF8.self) != nil
        var number = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            func fail(_ reason: String) -> CTLogListError { CTLogListError("\(path):\(number): \(reason)") }
            guard raw.count <= Self.maximumLineLength else {
                throw fail("a line longer than \(Self.maximumLineLength) bytes")
            }
            let body = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
            guard valid || String(validating: body, as: UTF8.self) != nil else { throw fail("not UTF-8 text") }
            // Bytes of valid UTF-8, not characters: every byte the syntax gives a meaning is ASCII, which no other
            // code point's encoding holds, so a combining mark cannot hide a quote.
            let line = Self.trimmed(body)
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            if line.first == UInt8(ascii: "[") {
                try openSection(line, number: number, fail)
            } else if line.first == UInt8(ascii: ".") {
                throw fail("a directive (`\(UntrustedText.excerpt(Self.text(line)))`): a CT log list is data and has "
                    + "none")
            } else {
                try add(line, number: number, fail)
            }
        }
    }

    /// `[NAME]`: a name of letters, digits and `_`, each section once.
    private mutating func openSection(_ line: Line, number: Int, _ fail: (String) -> CTLogListError)
        throws(CTLogListError) {
        let name = Self.text(line.dropFirst().dropLast())
        guard line.last == UInt8(ascii: "]"), Self.isName(name) else {
            throw fail("expected a section `[NAME]`, NAME of at most \(Self.maximumNameLength) letters, digits or _")
        }
        if let first = sectionLines[name] {
            throw fail("section [\(name)] again (first on line \(first))")
        }
        guard sections.count < Self.maximumLogs else { throw fail("more than \(Self.maximumLogs) log sections") }
        sections.append(Section(name: name, line: number))
        sectionLines[name] = number
    }

    /// `KEY = VALUE`, KEY one the builder writes at that place, once.
    private mutating func add(_ line: Line, number: Int, _ fail: (String) -> CTLogListError) throws(CTLogListError) {
        guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
            throw fail("expected KEY = VALUE, a section [NAME], a # comment or a blank line")
        }
        let key = Self.text(Self.trimmed(line[..<equals]))
        let allowed = sections.isEmpty ? Self.topKeys : Self.sectionKeys
        // Made for an error only: every line of the list comes here.
        var place: String { sections.last.map { "in section [\($0.name)]" } ?? "before the first section" }
        guard allowed.contains(key) else {
            // A name is quoted (shortened): it is what stands before `=`, never what follows it.
            let shown = Self.isName(key) ? " `\(UntrustedText.excerpt(key))`" : ""
            throw fail("unknown key\(shown) \(place) (expected \(allowed.joined(separator: ", ")))")
        }
        let entries = sections.last?.entries ?? top
        if let first = entries.first(where: { $0.key == key }) {
            throw fail("\(key) again \(place) (first on line \(first.line))")
        }
        let entry = Entry(key: key, value: try Self.unescaped(line[(equals + 1)...], fail), line: number)
        if sections.isEmpty {
            top.append(entry)
        } else {
            sections[sections.count - 1].entries.append(entry)
        }
    }

    /// The value with the builder's escapes read as the characters they escape; printable text only.
    private static func unescaped(_ raw: Line, _ fail: (String) -> CTLogListError) throws(CTLogListError) -> String {
        var value: [UInt8] = []
        value.reserveCapacity(raw.count)
        var escaping = false
        var plain = true  // printable ASCII so far, which needs no Unicode check
        for byte in trimmed(raw) {
            if escaping {
                guard Array("\\\"'$#".utf8).contains(byte) else {
                    throw fail("a backslash before a character the builder does not escape (it escapes \\ \" ' $ #)")
                }
                value.append(byte)
                escaping = false
            } else if byte == UInt8(ascii: "\\") {
                escaping = true
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "#") {
                throw fail("a quote or # that is not escaped (the builder writes \\\" \\' \\#)")
            } else {
                plain = plain && byte >= 0x20 && byte < 0x7F
                value.append(byte)
            }
        }
        guard !escaping else { throw fail("a value that ends in a backslash") }
        let text = String(decoding: value, as: UTF8.self)
        guard plain || UntrustedText.isPrintable(text) else {
            throw fail("a value holding a control, format or separator character, which a log list never has")
        }
        return text
    }

    /// 1 to `maximumNameLength` ASCII letters, digits and `_`.
    static func isName(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumNameLength && text.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F
        }
    }

    /// A line's bytes, valid UTF-8.
    private typealias Line = ArraySlice<UInt8>

    private static func text(_ bytes: Line) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Without the spaces and tabs at either end (as OpenSSL's parser and the builder's `" ".join(split())`).
    private static func trimmed(_ bytes: Line) -> Line {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let start = bytes.firstIndex(where: { !blank($0) }), let end = bytes.lastIndex(where: { !blank($0) })
        else { return [] }
        return bytes[start...end]
    }
}
