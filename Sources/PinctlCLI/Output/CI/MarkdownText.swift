/// The one escaping rule for Markdown pinctl writes (the job summary GitHub renders): whatever a server, a file or a
/// user sent shows as the characters it is, never as markup, a link, an image, a mention, an HTML tag or an entity.
///
/// Escaping characters cannot give that on GitHub. Its Markdown links e-mail addresses (and `www.`, `http://`) in
/// the text it has parsed, after backslash escapes and entities are decoded: cmark-gfm, GitHub's renderer, turns
/// `a\@b\.com` and `a&#64;b&#46;com` alike into `<a href="mailto:a@b.com">`; and it finds mentions (`@user`),
/// references (`#123`) and emoji (`:tada:`) in the HTML it made, where no escape is left. What none of them enters is
/// code: cmark-gfm makes a code span's content one literal node, and GitHub's filters skip `<code>`. So every value
/// is a code span, whose content Markdown reads as it is (no escapes, entities, links or HTML), whatever it holds.
package enum MarkdownText {
    /// `text` as a code span fit for a table cell, or nothing when it is empty. Every control, format and separator
    /// character (line breaks, bidirectional controls, zero-width joiners) is a space, as a cell holds one line; each
    /// `|` is `\|`, as GFM splits a row at every other `|`, code spans included, and reads `\|` back as `|` there; the
    /// fence is one backtick longer than the longest run of backticks inside, so none closes it; and a space pads each
    /// end of the content when it starts or ends with a backtick (which would lengthen the fence), or starts and ends
    /// with a space and is not all spaces (CommonMark strips one from each end then).
    package static func codeSpan(_ text: String) -> String {
        var content = ""
        content.reserveCapacity(text.utf8.count)
        var longestRun = 0
        var run = 0
        for scalar in text.unicodeScalars {
            run = scalar == "`" ? run + 1 : 0
            longestRun = max(longestRun, run)
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: content += " "
            case _ where scalar == "|": content += "\\|"
            default: content.unicodeScalars.append(scalar)
            }
        }
        guard !content.isEmpty else { return "" }
        let (first, last) = (content.unicodeScalars.first, content.unicodeScalars.last)
        let padded = first == "`" || last == "`"
            || (first == " " && last == " " && content.unicodeScalars.contains { $0 != " " })
        let fence = String(repeating: "`", count: longestRun + 1)
        return padded ? fence + " " + content + " " + fence : fence + content + fence
    }
}
