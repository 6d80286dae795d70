import Foundation
import PolicyEngine
import Testing
import TestSupport

/// The one rule for text in Java and Kotlin source (comments and string literals): nothing in the text becomes code,
/// a Unicode escape (JLS §3.3), a line break or the end of a comment; expected texts written by hand.
@Suite("Text written into Java and Kotlin source")
struct JavaSourceTextTests {
    static let comments: [(String, String)] = [
        // Backslashes doubled: the one before u is preceded by an odd number of them, so javac translates nothing.
        (#"x\u000aRuntime.getRuntime().exec("id");//"#, #"x\\u000aRuntime.getRuntime().exec("id");//"#),
        (#"a\\u000a b\uuu000D"#, #"a\\\\u000a b\\uuu000D"#),
        ("end */ code /* open **/", "end * / code / * open ** /"),
        ("a\nb\r\nc\u{2028}d\u{85}e\tf", "a b  c d e f"),
        ("esc\u{1B}[31m del\u{7F} nul\u{0}", "esc<U+001B>[31m del<U+007F> nul<U+0000>"),
        ("bidi\u{202E}x m\u{FC}nchen \u{1F600}", "bidi<U+202E>x m<U+00FC>nchen <U+1F600>"),
        ("api.example.com", "api.example.com"),
    ]

    @Test(arguments: comments)
    func commentTextCannotLeaveItsComment(_ text: String, _ expected: String) {
        #expect(JavaSourceText.commentText(text) == expected)
    }

    static let literals: [(text: String, java: String, kotlin: String)] = [
        (#"a\u000ab"#, #""a\\u000ab""#, #""a\\u000ab""#),
        (#"q"$x"#, #""q\"$x""#, #""q\"\$x""#),
        ("a\nb\tc\r\u{8}", #""a\nb\tc\r\b""#, #""a\nb\tc\r\b""#),
        ("\u{1}7\u{7F}", #""\0017\177""#, #""\u00017\u007F""#),
        ("\u{E9}\u{1F600}", #""\u00E9\uD83D\uDE00""#, #""\u00E9\uD83D\uDE00""#),
    ]

    @Test(arguments: literals)
    func aStringLiteralHoldsItsTextAndNothingElse(_ text: String, _ java: String, _ kotlin: String) {
        #expect(JavaSourceText.stringLiteral(text, .java) == java)
        #expect(JavaSourceText.stringLiteral(text, .kotlin) == kotlin)
    }

    /// javac itself: each comment and literal in a method body, the program printing the literals' code points and
    /// nothing else; an escape that became code would not compile, or would print.
    @Test(.enabled(if: JavaCompiler.isAvailable))
    func javacReadsTheCommentsAsCommentsAndTheLiteralsAsTheirText() throws {
        let texts = Self.comments.map(\.0) + Self.literals.map(\.text)
        var body = ""
        for (index, text) in texts.enumerated() {
            body += "        // \(JavaSourceText.commentText(text))\n"
            body += "        /* \(JavaSourceText.commentText(text)) */\n"
            body += "        print(\(index), \(JavaSourceText.stringLiteral(text, .java)));\n"
        }
        let program = """
            public class Literals {
                static void print(int index, String text) {
                    StringBuilder line = new StringBuilder(index + ":");
                    text.codePoints().forEach(c -> line.append(' ').append(Integer.toHexString(c)));
                    System.out.println(line);
                }

                public static void main(String[] args) {
            \(body)    }
            }

            """
        try TemporaryDirectory.with { directory in
            let run = try JavaCompiler.compileAndRun([("Literals.java", program)], main: "Literals", in: directory)
            #expect(run.status == 0, "\(run)\n\(program)")
            let expected = texts.enumerated().map { index, text in
                "\(index):" + text.unicodeScalars.map { " " + String($0.value, radix: 16) }.joined() + "\n"
            }.joined()
            #expect(run.stdout == expected, "\(run)")
        }
    }
}
