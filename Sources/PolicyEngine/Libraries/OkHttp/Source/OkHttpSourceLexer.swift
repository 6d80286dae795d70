/// Splits Kotlin, Java or Groovy text into tokens, so that comments and the insides of strings are never mistaken for
/// code: `// .add("a", "b")` and `"/* not a comment */"` are what they look like to the compiler. It is the one lexer
/// of the Kotlin family in pinctl: the sources `add(…)` is read from and the Gradle build scripts `BuildConfig` values
/// are read from (`GradleTokens`) are both split here (#32: two lexers disagreed, and the build file's disagreed with
/// the compiler).
///
/// It reads what the compilers read, to the depth pinctl needs: `//` and `/* */` comments (nested in Kotlin), string
/// literals with their escapes, Kotlin raw strings and templates, Java text blocks, character literals, Groovy's
/// GStrings, slashy and dollar-slashy strings. A file the compiler would refuse for one of these (an unterminated
/// string or comment, an unknown escape) is refused here, at its line, and so is one whose reading pinctl cannot be
/// sure of (a Groovy `/` that may be a division or a string). Java source is lexed after its Unicode escapes are
/// translated (`JavaUnicodeEscapes`, JLS §3.3), with lines and columns still those of the file as written; Kotlin has
/// no such step and is lexed as written.
struct OkHttpSourceLexer {
    // Not private: strings and escapes are read in OkHttpSourceStrings.swift and beside it.
    let bytes: [UInt8]
    let path: String
    let dialect: SourceDialect
    var index = 0
    var line = 1
    var lineStart = 0
    var mark = (offset: 0, column: 1)
    /// How deep `${…}` templates nest here: bounded, so a hostile file cannot exhaust the stack.
    var templateDepth = 0
    /// The templates of the string literal read last, for its token.
    var stringTemplates: [OkHttpSourceToken.Template] = []
    /// The token read last, wherever it was (a template's too): whether a Groovy `/` divides or begins a string.
    var previous: OkHttpSourceToken?
    /// Java's translation when the file has escapes: `bytes` are then the translated ones, places are in the original.
    private var escapes: JavaUnicodeEscapes?

    /// The tokens of `bytes`, whose ranges are offsets in `bytes`; `escapes`, when given, is their Java translation:
    /// the tokens are then those of the translated bytes, and their lines and columns those of the file.
    static func tokens(_ bytes: [UInt8], path: String, language: OkHttpSourceLanguage,
                       escapes: JavaUnicodeEscapes? = nil) throws(ConfigurationError) -> [OkHttpSourceToken]
    {
        var lexer = OkHttpSourceLexer(bytes: escapes?.bytes ?? bytes, path: path, dialect: SourceDialect(language))
        lexer.escapes = escapes
        return try lexer.all()
    }

    /// The tokens of a build script or any other text of `dialect`, whose Unicode escapes (if the language has any)
    /// are not translated.
    static func tokens(_ bytes: [UInt8], path: String, dialect: SourceDialect) throws(ConfigurationError)
        -> [OkHttpSourceToken]
    {
        if dialect == .groovy { try refuseGroovyUnicodeEscapes(bytes, path: path) }
        var lexer = OkHttpSourceLexer(bytes: bytes, path: path, dialect: dialect)
        return try lexer.all()
    }

    private init(bytes: [UInt8], path: String, dialect: SourceDialect) {
        self.bytes = bytes
        self.path = path
        self.dialect = dialect
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {  // A UTF-8 byte order mark, not a column.
            index = 3
            lineStart = 3
        }
        // A script's `#!` line (.kts run directly) is no Kotlin.
        if bytes[index...].starts(with: Array("#!".utf8)) { skipLineComment() }
    }

    /// A place in the file, for tokens and errors.
    struct Place {
        let offset: Int
        let line: Int
        let column: Int
    }

    /// Here. Columns count characters (every byte but UTF-8's continuation bytes starts one), on from the last place
    /// asked for on this line, so a long line costs its length once, not once per token.
    mutating func here() -> Place {
        if escapes != nil, let position = escapes?.position(ofTranslated: index) {
            return Place(offset: index, line: position.line, column: position.column)
        }
        if mark.offset < lineStart { mark = (lineStart, 1) }
        mark.column += bytes[mark.offset..<index].count { $0 & 0xC0 != 0x80 }
        mark.offset = index
        return Place(offset: index, line: line, column: mark.column)
    }

    func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    func error(_ at: Place, _ message: String) -> ConfigurationError {
        ConfigurationError(file: path, line: at.line, column: at.column, message: message)
    }

    private mutating func all() throws(ConfigurationError) -> [OkHttpSourceToken] {
        var tokens: [OkHttpSourceToken] = []
        while let token = try nextToken() { tokens.append(token) }
        return tokens
    }

    /// The next token, nil at the end of the file; blanks and comments are passed over. A template `${…}` reads the
    /// tokens of its expression with it.
    mutating func nextToken() throws(ConfigurationError) -> OkHttpSourceToken? {
        while let current = byte(at: index) {
            let start = here()
            let next = byte(at: index + 1)
            let kind: OkHttpSourceToken.Kind
            stringTemplates = []
            switch current {
            case 0x20, 0x09, 0x0C, 0x0A, 0x0D:
                advance()
                continue
            case UInt8(ascii: "\\") where dialect == .groovy && (next == 0x0A || next == 0x0D):
                // Groovy's line escape: the line break is a blank, and the statement goes on.
                index += 1
                continue
            case UInt8(ascii: "/") where next == UInt8(ascii: "/"):
                skipLineComment()
                continue
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                try skipBlockComment()
                continue
            case UInt8(ascii: "/") where dialect == .groovy:
                kind = try slashOrSlashyString()
            case UInt8(ascii: "$") where dialect == .groovy && next == UInt8(ascii: "/"):
                kind = try dollarSlashyString()
            case UInt8(ascii: "\""):
                kind = try string()
            case UInt8(ascii: "'") where dialect == .groovy:
                kind = try string()
            case UInt8(ascii: "'"):
                try skipCharacter()
                kind = .other
            case UInt8(ascii: "`") where dialect == .kotlin:
                kind = .identifier(try backtickName())
            case _ where Self.startsName(current) || namesHoldDollars && current == UInt8(ascii: "$"):
                kind = .identifier(name())
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                while let digit = byte(at: index),
                      Self.continuesName(digit) || digit == UInt8(ascii: ".") && Self.isDigit(byte(at: index + 1)) {
                    index += 1
                }
                kind = .other
            default:
                index += 1
                kind = .punctuation(current)
            }
            var token = OkHttpSourceToken(kind: kind, range: start.offset..<index, line: start.line,
                                          column: start.column)
            if case .string = kind { token.templates = stringTemplates }
            previous = token
            return token
        }
        return nil
    }

    /// Moves past one byte, counting lines (LF, CR LF or a lone CR ends one).
    mutating func advance() {
        let current = bytes[index]
        index += 1
        if current == 0x0A || current == 0x0D && byte(at: index) != 0x0A {
            line += 1
            lineStart = index
        }
    }

    var atLineEnd: Bool { byte(at: index).map { $0 == 0x0A || $0 == 0x0D } ?? true }

    mutating func skipLineComment() {
        while !atLineEnd { index += 1 }
    }

    /// `/* … */`; in Kotlin they nest (`/* a /* b */ c */` is one comment), in Java and Groovy the first `*/` closes.
    mutating func skipBlockComment() throws(ConfigurationError) {
        let start = here()
        index += 2
        var depth = 1
        while depth > 0 {
            guard let current = byte(at: index) else {
                throw error(start, "unterminated comment: the /* opened here is never closed, so the "
                    + "\(dialect.name) compiler refuses the file")
            }
            if current == UInt8(ascii: "*"), byte(at: index + 1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
            } else if dialect == .kotlin, current == UInt8(ascii: "/"), byte(at: index + 1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else {
                advance()
            }
        }
    }

    /// A letter, `_` or any non-ASCII byte: what begins a name in every language of the family and in a template.
    static func startsName(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private static func continuesName(_ byte: UInt8) -> Bool { startsName(byte) || isDigit(byte) }

    private static func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }

    /// Java's and Groovy's names may hold `$`; Kotlin's may not, and no template's name does (`"$A$B"` is two).
    var namesHoldDollars: Bool { dialect != .kotlin }

    mutating func name(inTemplate: Bool = false) -> String {
        let start = index
        let dollars = namesHoldDollars && !inTemplate
        while let current = byte(at: index), Self.continuesName(current) || dollars && current == UInt8(ascii: "$") {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Kotlin's `` `any name` ``.
    mutating func backtickName() throws(ConfigurationError) -> String {
        let start = here()
        index += 1
        let first = index
        while byte(at: index) != UInt8(ascii: "`") {
            guard !atLineEnd else { throw error(start, "unterminated `name`: the backtick is never closed") }
            index += 1
        }
        index += 1
        return String(decoding: bytes[first..<(index - 1)], as: UTF8.self)
    }

    /// `'x'`, `'\n'`, `'"'`: read only so that a quote inside is not taken for a string.
    mutating func skipCharacter() throws(ConfigurationError) {
        let start = here()
        index += 1
        while byte(at: index) != UInt8(ascii: "'") {
            if byte(at: index) == UInt8(ascii: "\\") { index += 1 }
            guard !atLineEnd else { throw error(start, "unterminated character literal") }
            index += 1
        }
        index += 1
    }
}
