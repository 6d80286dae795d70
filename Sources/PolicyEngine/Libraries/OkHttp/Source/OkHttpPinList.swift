import TextSyntax

/// pinctl's text list of OkHttp pins (OkHttp defines no file format): one `pattern pin [pin…]` per line, separated by
/// spaces or tabs; blank lines and `#` comments (at the start of a line or after a space) are skipped; a pattern may
/// come back on a later line, its pins then pooled as repeated `add` calls pool them.
///
///     # pattern          pins
///     api.example.com    sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
///     **.example.com     sha256/BBBB…=  sha1/CCCC…=
enum OkHttpPinList {
    static func read(_ bytes: [UInt8], path: String) throws(ConfigurationError) -> [OkHttpSourceReader.Addition] {
        if let line = UntrustedText.nulByteLine(in: bytes) {
            throw ConfigurationError(file: path, line: line, message: UntrustedText.nulByteReason)
        }
        var additions: [OkHttpSourceReader.Addition] = []
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        // LF, CR LF or a lone CR ends a line.
        let lines = String(decoding: text, as: UTF8.self).split(omittingEmptySubsequences: false) {
            $0 == "\n" || $0 == "\r" || $0 == "\r\n"
        }
        for (offset, line) in lines.enumerated() {
            let words = self.words(line, line: offset + 1)
            guard let pattern = words.first else { continue }
            guard words.count > 1 else {
                // The lines before are checked first, so that the error is the file's first (their patterns and pins
                // are otherwise checked once the whole list is read).
                _ = try OkHttpSourceReader.entries(additions, path: path)
                throw ConfigurationError(file: path, line: pattern.line, column: pattern.column, message:
                    "\(UntrustedText.excerpt(pattern.value)) has no pin: a line is `pattern sha256/… [sha256/…]`")
            }
            additions.append(OkHttpSourceReader.Addition(pattern: pattern, pins: Array(words.dropFirst())))
        }
        guard !additions.isEmpty else {
            throw ConfigurationError(file: path, message: "holds no pattern: an OkHttp pin list has lines "
                + "`pattern sha256/… [sha256/…]`")
        }
        return additions
    }

    /// The words of a line up to a comment, each with its column (in characters, from 1).
    private static func words(_ line: Substring, line number: Int) -> [OkHttpAddArguments.Literal] {
        var words: [OkHttpAddArguments.Literal] = []
        var current = ""
        var start = 0
        for (column, character) in line.enumerated() {
            if character == " " || character == "\t" {
                if !current.isEmpty { words.append(.init(value: current, line: number, column: start + 1)) }
                current = ""
            } else {
                if current.isEmpty {
                    if character == "#" { return words }
                    start = column
                }
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(.init(value: current, line: number, column: start + 1)) }
        return words
    }
}
