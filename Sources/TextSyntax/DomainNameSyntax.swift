extension DomainName {
    /// Why `text` is neither a DNS host name nor an IP literal a certificate can be checked against; nil when it is
    /// one. Checked before any lookup, so a 300-character label is an input error, not "cannot resolve".
    public static func syntaxError(_ text: String) -> String? {
        guard !text.isEmpty else { return "empty host name" }
        if DomainName(text).isIPAddress { return nil }
        var name = Substring(text)
        if name.hasSuffix(".") { name = name.dropLast() }
        guard name.utf8.count <= 253 else {
            return "'\(text.prefix(40))…' has \(name.utf8.count) characters; a host name has at most 253"
        }
        if let bad = name.unicodeScalars.first(where: { !isHostNameScalar($0) }) {
            let shown = bad.isASCII && bad.value >= 0x20 && bad.value < 0x7F
                ? "'\(Character(bad))'" : "U+" + String(bad.value, radix: 16, uppercase: true)
            let hint = bad.isASCII ? "" : "; write an international name in its xn-- form"
            return "'\(text)' contains \(shown): a host name has only letters, digits, '-', '_' and dots\(hint)"
        }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { return "'\(text)' has an empty label (a leading dot or two dots in a row)" }
            guard label.utf8.count <= 63 else {
                return "'\(text.prefix(40))…' has a label of \(label.utf8.count) characters; a label has at most 63"
            }
        }
        return nil
    }

    private static func isHostNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
        default: false
        }
    }
}
