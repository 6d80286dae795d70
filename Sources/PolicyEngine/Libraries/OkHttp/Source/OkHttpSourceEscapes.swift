/// Backslash escapes inside string literals, as each compiler reads them; one it does not know is refused, since the
/// compiler refuses the file.
extension OkHttpSourceLexer {
    /// The escapes every language of the family shares.
    private static let simpleEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "t"): 0x09, UInt8(ascii: "b"): 0x08, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D,
        UInt8(ascii: "'"): 0x27, UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C,
    ]

    /// A backslash escape inside a string, its value appended as UTF-8.
    mutating func escape(into value: inout [UInt8]) throws(ConfigurationError) {
        let start = here()
        index += 1
        guard let current = byte(at: index) else { throw error(start, "unterminated string literal") }
        if let byte = Self.simpleEscapes[current] {
            value.append(byte)
            index += 1
            return
        }
        switch (dialect, current) {
        case (.kotlin, UInt8(ascii: "$")), (.groovy, UInt8(ascii: "$")):
            value.append(current)
            index += 1
        case (.java, UInt8(ascii: "f")), (.java, UInt8(ascii: "s")), (.groovy, UInt8(ascii: "f")),
             (.groovy, UInt8(ascii: "s")):
            value.append(current == UInt8(ascii: "f") ? 0x0C : 0x20)
            index += 1
        case (.java, UInt8(ascii: "0")...UInt8(ascii: "7")), (.groovy, UInt8(ascii: "0")...UInt8(ascii: "7")):
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
        case (.kotlin, UInt8(ascii: "u")), (.groovy, UInt8(ascii: "u")):
            // Kotlin's and Groovy's \u escape, one u and four hex digits. Java's were translated before lexing (JLS
            // §3.3): a \u left in a Java string came from `\u005cu…` or `\\u`, which javac refuses or reads as a
            // backslash.
            index += 1
            guard index + 4 <= bytes.count, let scalar = UInt32(String(decoding: bytes[index..<(index + 4)],
                                                                      as: UTF8.self), radix: 16)
            else { throw error(start, "a \\u escape needs four hexadecimal digits") }
            index += 4
            append(scalar, to: &value)
        case (.java, 0x0A), (.java, 0x0D), (.groovy, 0x0A), (.groovy, 0x0D):
            // A line continuation (Java's text block, any Groovy string): the line break is no part of the value.
            if current == 0x0D, byte(at: index + 1) == 0x0A { index += 1 }
            advance()
        default:
            let shown = current < 0x80
                ? "\\" + String(UnicodeScalar(current)) : "a backslash before a non-ASCII character"
            throw error(start, "illegal escape \(shown): the \(dialect.name) compiler refuses it")
        }
    }

    /// A UTF-16 code unit from an escape; a surrogate half stands alone here and becomes U+FFFD (no pattern or pin
    /// holds one: OkHttp refuses both).
    private func append(_ scalar: UInt32, to value: inout [UInt8]) {
        value += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
    }
}
