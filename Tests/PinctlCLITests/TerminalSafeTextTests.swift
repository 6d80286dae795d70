@testable import PinctlCLI
import Testing

/// `Terminal.safe` on text with and without anything to escape: text with nothing to escape is returned without
/// being copied, so these pin down that the quick way and the full pass agree, written out by hand.
@Suite struct TerminalSafeTextTests {
    @Test(arguments: [
        // Nothing to escape, ASCII or not.
        ("pinctl: 127.0.0.1:443 (app0): rejected", "pinctl: 127.0.0.1:443 (app0): rejected"),
        ("Android 7.0–17 (API 24–37) — anchor", "Android 7.0–17 (API 24–37) — anchor"),
        ("[#1] is not a command", "[#1] is not a command"),
        // Control characters, C1 and bidirectional overrides, beside non-ASCII text.
        ("iOS 12–17\u{1B}[2J", "iOS 12–17\\x1B[2J"),
        ("line\nbreak\ttab", "line\\nbreak\\ttab"),
        ("name\u{202E}txt.exe", "name\\u{202E}txt.exe"),
        ("c1\u{85}", "c1\\u{85}"),
        // Workflow commands: `::` at a line's start after white space, `##[` anywhere, ignorable characters between.
        ("::error::forged", "\\x3A:error::forged"),
        ("  ::warning::forged", "  \\x3A:warning::forged"),
        (":\u{AD}:error title=forged", "\\x3A\u{AD}:error title=forged"),
        ("a name ##[stop-commands]", "a name \\x23#[stop-commands]"),
        ("a name #\u{AD}#[stop-commands]", "a name \\x23\u{AD}#[stop-commands]"),
        ("host ::1 is loopback", "host ::1 is loopback"),
    ])
    func textIsShownSafely(text: String, shown: String) {
        #expect(Terminal.safe(text) == shown)
    }
}
