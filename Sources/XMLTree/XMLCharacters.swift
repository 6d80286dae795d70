/// XML 1.0's `Char` production (§2.2): #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. A
/// character outside it cannot be written at all, not even as a character reference, and no reader (libxml2,
/// Python's, a CI server's) reads a document holding one. The one rule every XML writer of pinctl applies.
public enum XMLCharacters {
    /// Whether an XML 1.0 document can hold `scalar` (a Swift scalar is never a surrogate).
    public static func canHold(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x00...0x1F, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    /// The first character of `text` XML cannot hold, if any.
    public static func firstUnwritable(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { !canHold($0) }
    }

    /// `text` with each character XML cannot hold shown as the terminal's visible escape (`\x1B`, `\u{FFFE}`), for a
    /// report, where a value must reach the reader whole rather than vanish or break the document. Idempotent.
    public static func visible(_ text: String) -> String {
        guard firstUnwritable(in: text) != nil else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if canHold(scalar) {
                result.unicodeScalars.append(scalar)
            } else if scalar.value < 0x20 {
                result += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// `U+001B`: how an error names a character.
    public static func name(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// A configuration value XML cannot hold, and where the document would have held it.
public struct XMLUnwritableValue: Error, Sendable, CustomStringConvertible {
    /// The value's place, as an XPath: `/network-security-config/domain-config[2]/domain`, `…/pin-set/@expiration`,
    /// `comment 2`.
    public let place: String
    /// The value, its unwritable characters shown as visible escapes.
    public let value: String
    public let character: Unicode.Scalar

    public var description: String {
        "\(place) would hold '\(value)', whose character \(XMLCharacters.name(character)) XML 1.0 cannot hold, not "
            + "even as a character reference"
    }
}
