/// The one escaping rule for Markdown pinctl writes (the job summary GitHub renders): whatever a server, a file or a
/// user sent shows as the characters it is, never as markup, a link, a mention, an HTML tag or an entity.
package enum MarkdownText {
    /// `text` as literal inline text, fit for a table cell: `&`, `<` and `>` as entities (GitHub renders raw HTML),
    /// every other ASCII punctuation character backslash-escaped (CommonMark allows it for each of them, and it keeps
    /// `|` from ending the cell, `@` from mentioning and `[`, `*`, `` ` `` from forming markup), and every control
    /// character, line breaks included, as a space: a cell holds one line.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case _ where scalar.isASCII && scalar.properties.generalCategory.isPunctuationOrSymbol:
                result += "\\"
                result.unicodeScalars.append(scalar)
            case _ where scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator
                || scalar.properties.generalCategory == .format:
                result += " "
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension Unicode.GeneralCategory {
    /// The categories of ASCII's punctuation characters: `!` to `/`, `:` to `@`, `[` to `` ` ``, `{` to `~`.
    fileprivate var isPunctuationOrSymbol: Bool {
        switch self {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            true
        default: false
        }
    }
}
