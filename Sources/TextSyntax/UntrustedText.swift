/// How a reader speaks of the text it refuses: every reader that quotes its input in an error quotes it through
/// `excerpt`, and every reader of text refuses a NUL byte through `nulByteLine`.
///
/// A reader can be pointed at any file (`config: /proc/self/environ`, a `.git-credentials`), and its errors go to a
/// CI log that others read, so what it quotes is never more than a person needs to find the line it names: a short
/// prefix, cut before anything that usually introduces a secret.
public enum UntrustedText {
    /// The most characters of a bad line or word an error quotes.
    public static let excerptLength = 24

    /// At most `excerptLength` characters of `text`, from its start, with `…` when anything was left out.
    ///
    /// The prefix stops before the first `:`, `@`, `=` or blank: the separators that put a secret after a name in the
    /// files a CI machine holds: `https://user:TOKEN@host` (`.git-credentials`, proxy URLs), `NAME=secret` (the
    /// environment, `.env`), `Authorization: Bearer …`, `password secret` (`.netrc`). Stopping at every `:` cuts a URL
    /// to its scheme and a target to its host, the price of never printing user-info; the error's file, line and
    /// column still locate the text. It stops too before a control or any other character that is neither printable
    /// ASCII nor a letter, mark or digit (a bidi override, a non-breaking space), so the excerpt is safe on a terminal
    /// and in any log. A secret alone on its line (a token file) is still quoted up to `excerptLength` characters.
    public static func excerpt(_ text: some StringProtocol) -> String {
        var kept = ""
        for scalar in text.unicodeScalars {
            guard kept.unicodeScalars.count < excerptLength, isQuotable(scalar) else { return kept + "…" }
            kept.unicodeScalars.append(scalar)
        }
        return kept
    }

    /// `message` with every whole occurrence of `value` (input a lower layer quoted whole, such as OkHttp's
    /// `Invalid pattern: VALUE`) replaced by its excerpt: a reader passes on why without the rest of the line.
    public static func redacting(_ value: some StringProtocol, in message: String) -> String {
        let shown = excerpt(value)
        guard !value.isEmpty, shown != String(value) else { return message }
        return message.replacing(String(value), with: shown)
    }

    /// The line (from 1) of the first NUL byte of `bytes`, nil when there is none. A text file never holds one; a
    /// file that does (`/proc/self/environ`, a binary) is refused whole and unquoted.
    @inlinable
    public static func nulByteLine(in bytes: some Collection<UInt8>) -> Int? {
        // Bytes in one buffer are searched there first (`ByteSearch`).
        let found = bytes.withContiguousStorageIfAvailable { ByteSearch.firstIndex(of: 0, in: $0) }
        if let found {
            guard let found else { return nil }
            return 1 + bytes.prefix(found).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }
        var line = 1
        for byte in bytes {
            if byte == 0 { return line }
            if byte == UInt8(ascii: "\n") { line += 1 }
        }
        return nil
    }

    /// The reason a reader gives for a NUL byte, after the file and the line of `nulByteLine`.
    public static let nulByteReason = "holds a NUL byte: not a text file"

    /// Whether every character of `text` is printable, as Python's `str.isprintable` counts it (the snapshot builder
    /// checks the same): no Other (control, format, surrogate, private use, unassigned) and no Separator but the ASCII
    /// space. Text a data file holds for display (a label, a log's description) is refused otherwise.
    public static func isPrintable(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            // ASCII without the Unicode tables: all of it prints but the C0 controls and DEL (space is let through).
            if scalar.isASCII { return scalar.value >= 0x20 && scalar.value != 0x7F }
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
                 .spaceSeparator:
                return false
            default:
                return true
            }
        }
    }

    private static func isQuotable(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return scalar.value > 0x20 && scalar.value < 0x7F && !":@=".unicodeScalars.contains(scalar)
        }
        // Letters, marks and digits of other scripts (`bücher.example`); never a control, format (bidi) or space.
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}
