/// Trimming and replacing by Unicode scalar, as Foundation's `CharacterSet` and `replacingOccurrences` do: they are
/// not in FoundationEssentials, and the full Foundation that has them links ICU's 37 MB of data into the binary. By
/// scalar, not by `Character`: the standard library's `replacing` would miss the CR of a CR LF pair, or a quote that
/// a combining accent follows.
extension StringProtocol {
    package func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }), let last = scalars.lastIndex(where: { !drop($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// Every scalar that `replacement` maps to text replaced by it.
    package func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        for scalar in unicodeScalars {
            if let text = replacement(scalar) { result += text } else { result.unicodeScalars.append(scalar) }
        }
        return result
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
