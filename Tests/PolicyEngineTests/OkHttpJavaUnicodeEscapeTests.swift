import Foundation
import PolicyEngine
import Testing
import TestSupport

/// Java translates `\uXXXX` everywhere before it lexes (JLS §3.3), so what is a comment and what is code is decided
/// after it: pinctl reads the `add` calls javac compiles, no more, no fewer. Kotlin has no such step.
@Suite("Java's Unicode escapes before lexing")
struct OkHttpJavaUnicodeEscapeTests {
    /// An app whose comments hide an add from javac that looks live, and show one that looks commented out.
    static let program = #"""
        import okhttp3.CertificatePinner;

        public class Pins {
            public static void main(String[] args) {
                CertificatePinner pinner = new CertificatePinner.Builder()
                    .add("api.example.com", "\#(okA)")
                    // the backup pin is off for now \u000a /*
                    .add("backup.example.com", "\#(okB)")
                    // */
                    /* off while testing \u002a/ .add("live.example.com", "\#(okC)") /* */
                    // not an escape, the backslash before u is escaped: \\u000a .add("x.example.com", "\#(okB)")
                    .add("\uuuu0061pi.example.com", "\#(okD)")
                    .build();
            }
        }

        """#

    /// What `Builder.add` is called with when the program runs, written by hand from JLS §3.3.
    static let added = [
        OkHttpEntryText("api.example.com", okA), OkHttpEntryText("live.example.com", okC),
        OkHttpEntryText("api.example.com", okD),
    ]

    @Test func theAddsReadAreThoseJavacCompiles() throws {
        let (policy, _, _) = try readOkHttpSource("Pins.java", Self.program)
        #expect(policy.entryTexts == Self.added)
    }

    /// The meaning of the file above is javac's: run with a stub builder, it adds exactly those pins.
    @Test(.enabled(if: JavaCompiler.isAvailable))
    func javacAgreesWithTheExpectedAdds() throws {
        try TemporaryDirectory.with { directory in
            let run = try JavaCompiler.compileAndRun([("okhttp3/CertificatePinner.java",
                                                       JavaCompiler.certificatePinnerStub),
                                                      ("Pins.java", Self.program)], main: "Pins", in: directory)
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout == Self.added.map { "add [\($0.pattern)] [\($0.pin)]\n" }.joined(), "\(run)")
        }
    }

    @Test func kotlinReadsNoEscapeOutsideItsStrings() throws {
        // In Kotlin the same comment is one line comment: the add below it is live.
        let (policy, _, _) = try readOkHttpSource("Pins.kt", """
            val pinner = CertificatePinner.Builder()
                // the backup pin is off for now \\u000a /*
                .add("backup.example.com", "\(okB)")
                .add("\\u0061.example.com", "\(okA)")
                .build()
            """)
        #expect(policy.entryTexts == [OkHttpEntryText("backup.example.com", okB),
                                      OkHttpEntryText("a.example.com", okA)])
    }

    static let errors: [OkHttpSourceErrorCase] = [
        // Lines and columns are the file's as written: escapes that became line breaks add no line.
        .init(name: "an error after translated line breaks", file: "P.java", source: #"""
            // one \u000a\u000a// two
            CertificatePinner p = new CertificatePinner.Builder()
                .add("a.example.com", \u0020PIN)
                .build();
            """#, line: 3, column: 33, saying: "unresolved pin PIN"),
        .init(name: "a malformed escape in a comment", file: "P.java", source: #"""
            CertificatePinner p = new CertificatePinner.Builder()
                // pins from C:\users\app
                .add("a.example.com", "\#(okA)")
                .build();
            """#, line: 2, column: 20, saying: "illegal unicode escape: a \\u escape needs four hexadecimal digits"),
        .init(name: "an escape made by an escape", file: "P.java", source: #"""
            CertificatePinner p = new CertificatePinner.Builder().add("\u005cu0061.example.com", "\#(okA)").build();
            """#, line: 1, column: 60, saying: "illegal escape \\u"),
    ]

    @Test(arguments: errors)
    func isRefusedWhereTheFileSaysIt(_ testCase: OkHttpSourceErrorCase) throws {
        do {
            let (policy, _, _) = try readOkHttpSource(testCase.file, testCase.source)
            Issue.record("read: \(policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.line == testCase.line, "\(error)")
            #expect(error.column == testCase.column, "\(error)")
            #expect(error.message.contains(testCase.saying), "\(error)")
        }
    }
}
