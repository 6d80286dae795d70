/// A Gradle build script (Groovy `build.gradle` or Kotlin `build.gradle.kts`) as far as finding its
/// `buildConfigField` calls and the blocks around them needs: words, strings, braces, parentheses and commas;
/// comments skipped. A string's value is its text with Groovy's and Kotlin's escapes read; one with a template
/// (`"$x"`) has none.
struct GradleTokens {
    enum Kind: Equatable {
        case word(String)
        /// A string's value; nil when a template makes it depend on the build.
        case string(String?)
        case open
        case close
        case openParenthesis
        case closeParenthesis
        case comma
        case other
    }

    struct Token {
        let kind: Kind
        let line: Int
    }

    private(set) var items: [Token] = []

    init(_ bytes: [UInt8]) {
        var index = 0
        var line = 1
        func at(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }
        while let byte = at(index) {
            let start = line
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                index += 1
            case UInt8(ascii: "/") where at(index + 1) == UInt8(ascii: "/"):
                while let next = at(index), next != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where at(index + 1) == UInt8(ascii: "*"):
                index += 2
                while index < bytes.count, !(at(index) == UInt8(ascii: "*") && at(index + 1) == UInt8(ascii: "/")) {
                    if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
                index += 2
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let (value, end, lines) = Self.string(bytes, at: index, quote: byte)
                items.append(Token(kind: .string(value), line: start))
                line += lines
                index = end
            case UInt8(ascii: "{"): items.append(Token(kind: .open, line: start)); index += 1
            case UInt8(ascii: "}"): items.append(Token(kind: .close, line: start)); index += 1
            case UInt8(ascii: "("): items.append(Token(kind: .openParenthesis, line: start)); index += 1
            case UInt8(ascii: ")"): items.append(Token(kind: .closeParenthesis, line: start)); index += 1
            case UInt8(ascii: ","): items.append(Token(kind: .comma, line: start)); index += 1
            case _ where Self.isWordByte(byte):
                var end = index
                while let next = at(end), Self.isWordByte(next) { end += 1 }
                items.append(Token(kind: .word(String(decoding: bytes[index..<end], as: UTF8.self)), line: start))
                index = end
            default:
                if byte > 0x20 { items.append(Token(kind: .other, line: start)) }
                index += 1
            }
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    /// A quoted string at `start` (`"…"`, `'…'`, or tripled): its value, the index after it, the line breaks inside.
    /// Groovy's single-quoted strings have no templates; its double-quoted ones, like Kotlin's, do.
    private static func string(_ bytes: [UInt8], at start: Int, quote: UInt8) -> (String?, Int, Int) {
        let triple = start + 2 < bytes.count && bytes[start + 1] == quote && bytes[start + 2] == quote
        var index = start + (triple ? 3 : 1)
        var value: [UInt8] = []
        var templated = false
        var lines = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote, !triple || (index + 2 < bytes.count && bytes[index + 1] == quote
                                          && bytes[index + 2] == quote) {
                return (templated ? nil : String(decoding: value, as: UTF8.self), index + (triple ? 3 : 1), lines)
            }
            if byte == UInt8(ascii: "\n") {
                lines += 1
                // A one-line string never spans lines: it ends here, unclosed, and has no value.
                if !triple { return (nil, index, lines - 1) }
            }
            if byte == UInt8(ascii: "\\"), !triple, index + 1 < bytes.count {
                let next = bytes[index + 1]
                switch next {
                case UInt8(ascii: "n"): value.append(0x0A)
                case UInt8(ascii: "t"): value.append(0x09)
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "$"): value.append(next)
                default: templated = true   // \uXXXX and others: not read, so no value is claimed
                }
                index += 2
                continue
            }
            if byte == UInt8(ascii: "$"), quote == UInt8(ascii: "\"") { templated = true }
            value.append(byte)
            index += 1
        }
        return (nil, index, lines)
    }

    /// The name of the block whose `{` is at `open`: `name {`, or the string of `create("x") {`, `getByName("x") {`,
    /// `register("x") {`, `maybeCreate("x") {`, `named("x") {`; nil for a lambda after anything else.
    func blockName(endingBefore open: Int) -> String? {
        guard open >= 1 else { return nil }
        if case .word(let name) = items[open - 1].kind { return name }
        guard open >= 4, items[open - 1].kind == .closeParenthesis, case .string(let name?) = items[open - 2].kind,
              items[open - 3].kind == .openParenthesis, case .word(let call) = items[open - 4].kind,
              ["create", "getByName", "register", "maybeCreate", "named"].contains(call)
        else { return nil }
        return name
    }

    /// `("TYPE", "NAME", "VALUE")` or Groovy's `"TYPE", "NAME", "VALUE"` after `buildConfigField` at `index`: the three
    /// strings (each nil when a template or an expression makes it unknown) and the index after them.
    func fieldArguments(after index: Int) -> (type: String?, name: String?, value: String?, next: Int) {
        var next = index + 1
        let parenthesized = next < items.count && items[next].kind == .openParenthesis
        if parenthesized { next += 1 }
        var arguments: [String?] = []
        while arguments.count < 3, next < items.count {
            if case .string(let value) = items[next].kind {
                arguments.append(value)
                next += 1
            } else {
                arguments.append(nil)
                // An expression: up to the next comma or the call's end.
                while next < items.count, items[next].kind != .comma, items[next].kind != .closeParenthesis,
                      items[next].kind != .close { next += 1 }
            }
            guard arguments.count < 3, next < items.count, items[next].kind == .comma else { break }
            next += 1
        }
        while arguments.count < 3 { arguments.append(nil) }
        return (arguments[0], arguments[1], arguments[2], next)
    }
}
