/// What Groovy alone has among the languages the lexer reads: slashy strings `/…/`, which begin where a division
/// cannot, dollar-slashy strings `$/…/$`, and Unicode escapes whose reading changed between Groovy versions.
///
/// Groovy's lexer (GroovyLexer.g4, `isRegexAllowed`) reads a `/` as a division after a name, a literal, `)`, `]`, `}`,
/// `++` or `--`, and as the start of a slashy string anywhere else, a line break outside parentheses included. Where
/// that depends on more than pinctl tracks (a line break or a comment after a name, `++`, a word that only some
/// Groovy versions keep for themselves), the file is refused rather than read one way the build may not.
extension OkHttpSourceLexer {
    /// Groovy's keywords: after one of them, a `/` begins a slashy string (`return /x/`).
    private static let groovyKeywords: Set<String> = [
        "as", "def", "in", "trait", "threadsafe", "boolean", "char", "byte", "short", "int", "long", "float", "double",
        "abstract", "assert", "break", "case", "catch", "class", "const", "continue", "default", "do", "else", "enum",
        "extends", "final", "finally", "for", "if", "goto", "implements", "import", "instanceof", "interface",
        "native", "new", "package", "private", "protected", "public", "return", "static", "strictfp", "super", "switch",
        "synchronized", "throw", "throws", "transient", "try", "void", "volatile", "while",
    ]
    /// Words that are keywords in some Groovy versions and names in others.
    private static let groovyVersionedWords: Set<String> = [
        "var", "yield", "record", "sealed", "permits", "non", "val", "async", "await", "defer", "module",
    ]

    /// At a `/` that starts no comment: a slashy string where Groovy begins one, else the division.
    mutating func slashOrSlashyString() throws(ConfigurationError) -> OkHttpSourceToken.Kind {
        let start = here()
        guard try slashBeginsString(start) else {
            index += 1
            return .punctuation(UInt8(ascii: "/"))
        }
        return try literal(start, StringForm(opening: 1, closing: .slash, multiline: true, escapes: .slash,
                                             templates: .lenient, name: "slashy string"))
    }

    /// Whether Groovy reads the `/` here as the start of a slashy string: after anything but an operand.
    private func slashBeginsString(_ start: Place) throws(ConfigurationError) -> Bool {
        guard let previous else { return true }
        let operand: Bool
        switch previous.kind {
        case .string, .other:
            operand = true  // A string or a number: Groovy has no character literal.
        case .identifier(let word):
            guard !Self.groovyVersionedWords.contains(word) else {
                throw error(start, "a / after \"\(word)\", a keyword in some Groovy versions and a name in others: "
                    + "Groovy reads the / as a division or as the start of a slashy string accordingly, and pinctl "
                    + "does not know which Groovy builds this file")
            }
            operand = !Self.groovyKeywords.contains(word)
        case .punctuation(let character):
            if character == UInt8(ascii: "+") || character == UInt8(ascii: "-"),
               previous.range.lowerBound > 0, bytes[previous.range.lowerBound - 1] == character {
                throw error(start, "a / after ++ or --: whether Groovy reads it as a division or as the start of a "
                    + "slashy string depends on how it splits the operators, which pinctl does not follow")
            }
            operand = [UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(character)
        }
        guard operand else { return true }
        // After an operand on the same line a / divides; after a line break or a comment Groovy may begin a new
        // statement there, and then a slashy string.
        guard bytes[previous.range.upperBound..<index].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0C }) else {
            throw error(start, "a / after a line break or a comment: Groovy reads it as a division or as the start of "
                + "a slashy string depending on the statement around it, which pinctl does not follow")
        }
        return false
    }

    /// `$/…/$`: `$/` and `$$` escape, templates apply.
    mutating func dollarSlashyString() throws(ConfigurationError) -> OkHttpSourceToken.Kind {
        let start = here()
        // Groovy reads `$//$` as the name `$` and a comment: a dollar-slashy string holds at least one character.
        if byte(at: index + 2) == UInt8(ascii: "/"), byte(at: index + 3) == UInt8(ascii: "$") {
            throw error(start, "$//$ is no string to Groovy (the name $, then a comment): pinctl does not read it")
        }
        return try literal(start, StringForm(opening: 2, closing: .slashDollar, multiline: true, escapes: .dollar,
                                             templates: .lenient, name: "dollar-slashy string"))
    }

    /// Groovy 2 (Gradle 6 and older) translated `\uXXXX` everywhere before lexing, as Java does; Groovy 3 reads it only
    /// inside strings. A comment or string holding one may therefore end in one place for one Gradle and elsewhere for
    /// another, so a build script with any is refused, at the escape's line.
    static func refuseGroovyUnicodeEscapes(_ bytes: [UInt8], path: String) throws(ConfigurationError) {
        var line = 1
        var backslashes = 0
        for (offset, byte) in bytes.enumerated() {
            if byte == 0x0A || byte == 0x0D && bytes[safe: offset + 1] != 0x0A { line += 1 }
            defer { backslashes = byte == UInt8(ascii: "\\") ? backslashes + 1 : 0 }
            // JLS §3.3, as Groovy 2 followed it: a \ preceded by an even number of \ may begin an escape.
            guard byte == UInt8(ascii: "\\"), backslashes % 2 == 0, bytes[safe: offset + 1] == UInt8(ascii: "u")
            else { continue }
            var digits = offset + 1
            while bytes[safe: digits] == UInt8(ascii: "u") { digits += 1 }
            let hex = (digits..<(digits + 4)).allSatisfy { bytes[safe: $0].map(Self.isHexDigit) ?? false }
            guard hex else { continue }
            throw ConfigurationError(file: path, line: line, message: "a \\u escape, which Groovy 2 (Gradle 6 and "
                + "older) reads before anything else and Groovy 3 only inside a string: what the build sees here "
                + "depends on the Gradle version, so pinctl does not read the file")
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}

extension Array where Element == UInt8 {
    /// The byte at `index`, nil past either end.
    fileprivate subscript(safe index: Int) -> UInt8? { indices.contains(index) ? self[index] : nil }
}
