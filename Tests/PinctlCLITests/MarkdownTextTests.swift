import PinctlCLI
import Testing

/// `MarkdownText.codeSpan`, the job summary's one escaping rule, over what GitHub's Markdown would otherwise turn into
/// a link, a mention, HTML or another cell. The expected spans were checked with cmark-gfm, GitHub's renderer: each
/// renders as one `<code>` holding the text.
@Suite struct MarkdownTextTests {
    @Test(arguments: [
        // Links GitHub makes in text, escaped or not (cmark-gfm links `a\@b\.com` and `a&#64;b&#46;com` too).
        ("ops@example.com", "`ops@example.com`"),
        ("email:ops@example.com, DNS:www.example.org", "`email:ops@example.com, DNS:www.example.org`"),
        ("URI:https://evil.example/x", "`URI:https://evil.example/x`"),
        // Mentions, references, emoji, images, links and HTML: literal inside a code span.
        ("@octocat #123 :tada:", "`@octocat #123 :tada:`"),
        ("![i](http://x/i.png) [l](http://x)", "`![i](http://x/i.png) [l](http://x)`"),
        ("<img src=x onerror=alert(1)> &amp;", "`<img src=x onerror=alert(1)> &amp;`"),
        // Markup a line could start: a heading, a list, a quote; a span holds no block.
        ("# heading", "`# heading`"),
        ("> quote", "`> quote`"),
        // A table cell: `|` is `\|` (GFM reads it back as `|` in a code span too), a backslash stays as it is.
        ("a|b", "`a\\|b`"),
        ("a\\|b", "`a\\\\|b`"),
        ("ends with a backslash\\", "`ends with a backslash\\`"),
    ])
    func nothingGitHubLinksOrRendersLeavesTheCodeSpan(_ text: String, _ span: String) {
        #expect(MarkdownText.codeSpan(text) == span)
    }

    @Test(arguments: [
        ("a`b", "``a`b``"),
        ("`", "`` ` ``"),
        ("``x``` y", "```` ``x``` y ````"),
        ("`tick at the start", "`` `tick at the start ``"),
        ("a space at the end ", "`a space at the end `"),
        (" both ", "`  both  `"),
        ("   ", "`   `"),
        ("", ""),
    ])
    func theFenceIsLongerThanAnyRunInsideAndPaddingSurvivesStripping(_ text: String, _ span: String) {
        #expect(MarkdownText.codeSpan(text) == span)
    }

    /// A cell holds one line: every control, format and separator character is a space, so no line break ends the
    /// row and no bidirectional control reorders what the reader sees.
    @Test(arguments: [
        ("a\nb\r\nc", "`a b  c`"),
        ("tab\there", "`tab here`"),
        ("rtl\u{202E}txt", "`rtl txt`"),
        ("zero\u{200D}width", "`zero width`"),
        ("line\u{2028}para\u{2029}end", "`line para end`"),
        ("\u{1B}[2J", "` [2J`"),
    ])
    func controlAndFormatCharactersAreSpaces(_ text: String, _ span: String) {
        #expect(MarkdownText.codeSpan(text) == span)
    }
}
