/// String literals, as the Kotlin and Java compilers read them: their value once escapes are read, and whether that
/// value is known from the file alone (a template's is not).
extension OkHttpSourceLexer {
    /// Any string literal: `"…"`, Kotlin's raw `"""…"""` or Java's text block.
    mutating func string() throws(ConfigurationError) -> OkHttpSourceToken.Kind {
        let start = here()
        guard byte(at: index + 1) == UInt8(ascii: "\""), byte(at: index + 2) == UInt8(ascii: "\"") else {
            return try quotedString(start)
        }
        return language == .kotlin ? try rawString(start) : try textBlock(start)
    }

    private mutating func quotedString(_ start: Place) throws(ConfigurationError) -> OkHttpSourceToken.Kind {
        index += 1
        var value: [UInt8] = []
        var dynamic: String?
        var templates: [OkHttpSourceToken.Template] = []
        while true {
            guard !atLineEnd else {
                throw error(start, "unterminated string literal: the \" opened here is not closed on its line")
            }
            let current = bytes[index]
            if current == UInt8(ascii: "\"") {
                index += 1
                stringTemplates = templates
                return .string(value: String(decoding: value, as: UTF8.self), dynamic: dynamic)
            } else if current == UInt8(ascii: "\\") {
                try escape(into: &value)
            } else if language == .kotlin, current == UInt8(ascii: "$"), let template = try template(start) {
                templates.append(.init(offset: value.count, name: Self.templateName(template.text)))
                dynamic = dynamic ?? "a string with the template \(template.shown)"
            } else {
                value.append(current)
                index += 1
            }
        }
    }

    /// Kotlin's `"""…"""`: no escapes, templates still apply; quotes before the closing three belong to the string.
    private mutating func rawString(_ start: Place) throws(ConfigurationError) -> OkHttpSourceToken.Kind {
        index += 3
        var value: [UInt8] = []
        var dynamic: String?
        var templates: [OkHttpSourceToken.Template] = []
        while true {
            guard let current = byte(at: index) else {
                throw error(start, "unterminated raw string: the \"\"\" opened here is never closed")
            }
            if current == UInt8(ascii: "\"") {
                var run = 0
                while byte(at: index + run) == UInt8(ascii: "\"") { run += 1 }
                if run >= 3 {
                    value += Array(repeating: UInt8(ascii: "\""), count: run - 3)
                    index += run
                    stringTemplates = templates
                    return .string(value: String(decoding: value, as: UTF8.self), dynamic: dynamic)
                }
            }
            if current == UInt8(ascii: "$"), let template = try template(start) {
                templates.append(.init(offset: value.count, name: Self.templateName(template.text)))
                dynamic = dynamic ?? "a string with the template \(template.shown)"
                continue
            }
            value.append(current)
            advance()
        }
    }

    /// Java's `"""` text block: read to its end (escapes included) so what follows is tokenized right; its value
    /// depends on indentation stripping pinctl does not apply, so it counts as unknown.
    private mutating func textBlock(_ start: Place) throws(ConfigurationError) -> OkHttpSourceToken.Kind {
        index += 3
        while let current = byte(at: index), current == 0x20 || current == 0x09 || current == 0x0C { index += 1 }
        guard byte(at: index) == 0x0A || byte(at: index) == 0x0D else {
            throw error(start, "a text block's opening \"\"\" must end its line")
        }
        var ignored: [UInt8] = []
        while true {
            guard let current = byte(at: index) else {
                throw error(start, "unterminated text block: the \"\"\" opened here is never closed")
            }
            if current == UInt8(ascii: "\\") {
                try escape(into: &ignored)
            } else if current == UInt8(ascii: "\""), byte(at: index + 1) == current, byte(at: index + 2) == current {
                index += 3
                return .string(value: "", dynamic: "a text block, whose indentation Java strips")
            } else {
                advance()
            }
        }
    }

    /// A backslash escape inside a string, its value appended as UTF-8; one the compiler does not know is refused.
    private mutating func escape(into value: inout [UInt8]) throws(ConfigurationError) {
        let start = here()
        index += 1
        guard let current = byte(at: index) else { throw error(start, "unterminated string literal") }
        let simple: [UInt8: UInt8] = [UInt8(ascii: "t"): 0x09, UInt8(ascii: "b"): 0x08, UInt8(ascii: "n"): 0x0A,
                                      UInt8(ascii: "r"): 0x0D, UInt8(ascii: "'"): 0x27, UInt8(ascii: "\""): 0x22,
                                      UInt8(ascii: "\\"): 0x5C]
        if let byte = simple[current] {
            value.append(byte)
            index += 1
            return
        }
        switch (language, current) {
        case (.kotlin, UInt8(ascii: "$")):
            value.append(current)
            index += 1
        case (.java, UInt8(ascii: "f")), (.java, UInt8(ascii: "s")):
            value.append(current == UInt8(ascii: "f") ? 0x0C : 0x20)
            index += 1
        case (.java, UInt8(ascii: "0")...UInt8(ascii: "7")):
            // Octal: up to three digits when the first is 0-3 (at most \377), else two.
            let limit = current <= UInt8(ascii: "3") ? 3 : 2
            var scalar: UInt32 = 0
            var digits = 0
            while digits < limit, let digit = byte(at: index), (0x30...0x37).contains(digit) {
                scalar = scalar * 8 + UInt32(digit - 0x30)
                digits += 1
                index += 1
            }
            append(scalar, to: &value)
        case (.kotlin, UInt8(ascii: "u")):
            // Kotlin's \u escape, one u and four hex digits. Java's were translated before lexing (JLS §3.3): a \u
            // left in a Java string came from `\u005cu…` or `\\u`, which javac refuses or reads as a backslash.
            index += 1
            guard index + 4 <= bytes.count, let scalar = UInt32(String(decoding: bytes[index..<(index + 4)],
                                                                      as: UTF8.self), radix: 16)
            else { throw error(start, "a \\u escape needs four hexadecimal digits") }
            index += 4
            append(scalar, to: &value)
        case (.java, 0x0A), (.java, 0x0D):
            advance()  // A text block's line continuation.
        default:
            let shown = current < 0x80
                ? "\\" + String(UnicodeScalar(current)) : "a backslash before a non-ASCII character"
            throw error(start, "illegal escape \(shown): the \(language.name) compiler refuses it")
        }
    }

    /// A UTF-16 code unit from an escape; a surrogate half stands alone here and becomes U+FFFD (no pattern or pin
    /// holds one: OkHttp refuses both).
    private func append(_ scalar: UInt32, to value: inout [UInt8]) {
        value += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
    }

    /// A Kotlin template at a `$`: `$name` or `${expression}` (read through nested strings and braces); nil when the
    /// `$` is a plain character.
    private mutating func template(_ start: Place) throws(ConfigurationError) -> (text: String, shown: String)? {
        let first = index
        guard let next = byte(at: index + 1) else { return nil }
        if next == UInt8(ascii: "{") {
            templateDepth += 1
            defer { templateDepth -= 1 }
            guard templateDepth <= 32 else { throw error(start, "string templates nested more than 32 deep") }
            index += 2
            var depth = 1
            while depth > 0 {
                guard let current = byte(at: index) else {
                    throw error(start, "unterminated string template: the ${ in this string is never closed")
                }
                switch current {
                case UInt8(ascii: "\""): _ = try string()
                case UInt8(ascii: "'"): try skipCharacter()
                case UInt8(ascii: "/") where byte(at: index + 1) == UInt8(ascii: "/"): skipLineComment()
                case UInt8(ascii: "/") where byte(at: index + 1) == UInt8(ascii: "*"): try skipBlockComment()
                case UInt8(ascii: "{"): depth += 1; index += 1
                case UInt8(ascii: "}"): depth -= 1; index += 1
                default: advance()
                }
            }
        } else if next == UInt8(ascii: "`") {
            index += 1
            _ = try backtickName()
        } else if Self.startsName(next), next != UInt8(ascii: "$") {
            index += 1
            _ = name()
        } else {
            return nil
        }
        let text = String(decoding: bytes[first..<index], as: UTF8.self)
        return (text, text.count > 40 ? String(text.prefix(37)) + "…" : text)
    }

    /// The value a template names: `$NAME` or `${NAME}`, `${Owner.NAME}` with blanks inside the braces; nil for any
    /// other expression (a call, an index, an operator), whose value is not a constant's.
    static func templateName(_ text: String) -> String? {
        var body = Substring(text.dropFirst())
        if body.hasPrefix("{") {
            body = body.dropFirst().dropLast()
            body = body.drop(while: { $0 == " " || $0 == "\t" })
            while body.last == " " || body.last == "\t" { body = body.dropLast() }
        }
        guard OkHttpDefinition.isDefinableName(String(body)) else { return nil }
        return String(body)
    }
}
