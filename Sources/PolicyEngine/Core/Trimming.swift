/// Trimming by Unicode scalar, as Foundation's `CharacterSet` trims: FoundationEssentials has no `CharacterSet`, and
/// the full Foundation that does links ICU's 37 MB of data into the binary.
extension StringProtocol {
    package func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }), let last = scalars.lastIndex(where: { !drop($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension Unicode.Scalar {
    /// `CharacterSet.whitespaces`: space separators and the tab.
    package var isBlank: Bool { self == "\t" || properties.generalCategory == .spaceSeparator }

    /// `CharacterSet.whitespacesAndNewlines`: blanks, U+000A–U+000D, NEL, and the line and paragraph separators.
    package var isBlankOrNewline: Bool {
        isBlank || ("\u{0A}"..."\u{0D}").contains(self) || self == "\u{85}" || self == "\u{2028}" || self == "\u{2029}"
    }
}
