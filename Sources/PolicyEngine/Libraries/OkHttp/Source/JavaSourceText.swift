import TextSyntax

/// The one rule for text pinctl writes into Java or Kotlin source: string literals and comment text. Every writer of
/// Java or Kotlin goes through it, whatever the text is (a pattern, a pin, a domain name from another library's file).
///
/// What it guards against is text that stops being text. Java translates `\uXXXX` anywhere in the file before it
/// lexes (JLS §3.3), comments and strings included, so `\u000a` in a comment is a line break and what follows it is
/// code. JLS §3.3: "a \ is eligible to begin a Unicode escape if it is contiguously preceded by an even number of
/// \ characters"; every backslash is written doubled, so each run of them is even, the backslash before a `u` is then
/// preceded by an odd number, and no escape can begin. Kotlin has no such translation (its `\u` is an escape inside
/// string literals only), but the same rule keeps both safe and the same.
public enum JavaSourceText {
    /// A string literal whose value is `text`: `\` and `"` escaped, `$` too in Kotlin (a template otherwise), line
    /// breaks and tabs by their escapes, other control characters and every non-ASCII character by number.
    ///
    /// Java writes a control character in octal (`\001`, always three digits so a digit after it cannot join it): a
    /// `\u000a` of pinctl's own would be translated into a real line break inside the literal. A non-ASCII character is
    /// written `\uXXXX` (UTF-16 units): it is translated before lexing too, into a character that is neither a line
    /// terminator, a quote nor a backslash, which is what the literal should hold. Kotlin reads `\uXXXX` as an escape.
    public static func stringLiteral(_ text: String, _ language: OkHttpSourceLanguage) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "$" where language == .kotlin: out += "\\$"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += language == .java ? "\\" + octal(scalar.value) : utf16Escapes(scalar)
            case _ where scalar.value >= 0x80: out += utf16Escapes(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Text that stays inside a `//` or `/* */` comment: backslashes doubled (no `\u` can begin a Unicode escape),
    /// whitespace of any kind (line breaks, U+2028) a space, other control characters and every non-ASCII character
    /// written `<U+XXXX>` (no raw terminal control, no bidirectional override that shows code as comment), and a
    /// space inside `*/` and `/*` (neither closes a Java comment nor opens a nested Kotlin one).
    public static func commentText(_ text: String) -> String {
        var out = ""
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if (scalar == "/" && previous == "*") || (scalar == "*" && previous == "/") { out += " " }
            if scalar == "\\" {
                out += "\\\\"
            } else if scalar.properties.isWhitespace {
                out += " "
            } else if scalar.value < 0x20 || scalar.value >= 0x7F {
                out += "<U+" + Hex.number(scalar.value, digits: 4) + ">"
            } else {
                out.unicodeScalars.append(scalar)
            }
            previous = out.unicodeScalars.last
        }
        return out
    }

    /// `\uXXXX`, twice (a surrogate pair) above U+FFFF.
    private static func utf16Escapes(_ scalar: Unicode.Scalar) -> String {
        String(scalar).utf16.map { "\\u" + Hex.number(UInt32($0), digits: 4) }.joined()
    }

    private static func octal(_ value: UInt32) -> String {
        let digits = String(value, radix: 8)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
}
