import Foundation
import PolicyEngine
import Testing
import TestSupport

/// Keys of certs/libraries/, pins as the openssl CLI computed them.
let okA = LibraryCerts.pin(of: "leaf.pem")
let okB = LibraryCerts.pin(of: "leaf-rekeyed.pem")
let okC = LibraryCerts.pin(of: "intermediate-ca.pem")
let okD = LibraryCerts.sha1Pin(of: "root-ca.pem")

/// A source file and what OkHttp's builder would hold after running it, written by hand.
struct OkHttpSourceCase: Sendable, CustomTestStringConvertible {
    let name: String
    let file: String
    let source: String
    let entries: [OkHttpEntryText]

    var testDescription: String { name }
}

/// An entry as text: the canonical pattern and the pin in OkHttp's normalised form.
struct OkHttpEntryText: Sendable, Equatable, CustomStringConvertible {
    let pattern: String
    let pin: String

    init(_ pattern: String, _ pin: String) {
        self.pattern = pattern
        self.pin = pin
    }

    var description: String { "\(pattern) \(pin)" }
}

extension OkHttpPolicy {
    var entryTexts: [OkHttpEntryText] { entries.map { OkHttpEntryText($0.pattern.canonical, $0.pin.text) } }
}

/// Reads `source` as the file `name` in a fresh directory.
func readOkHttpSource(_ name: String, _ source: String) throws
    -> (policy: OkHttpPolicy, notes: [String], path: String)
{
    try TemporaryDirectory.with { directory in
        let path = try directory.write(name, text: source)
        let (policy, notes) = try OkHttpSourceReader.read(path, hosts: [])
        return (policy, notes, path)
    }
}

/// The forms of OkHttp's pinning in Kotlin and Java that pinctl reads (research note okhttp.md §4).
@Suite("OkHttp pins read from Kotlin and Java")
struct OkHttpSourceReaderTests {
    static let cases: [OkHttpSourceCase] = [
        .init(name: "a chain on one line", file: "P.kt",
              source: "val p = CertificatePinner.Builder().add(\"a.example.com\", \"\(okA)\").build()\n",
              entries: [.init("a.example.com", okA)]),
        .init(name: "repeated adds keep file order, a pattern's pins pooled", file: "P.kt", source: """
            val p = CertificatePinner.Builder()
                .add("a.example.com", "\(okA)")
                .add("b.example.com", "\(okB)")
                .add("a.example.com", "\(okC)", "\(okA)")
                .build()
            """, entries: [.init("a.example.com", okA), .init("b.example.com", okB), .init("a.example.com", okC)]),
        .init(name: "a builder variable with separate statements", file: "P.kt", source: """
            val b = CertificatePinner.Builder()
            b.add("a.example.com", "\(okA)")
            b.add("b.example.com", "\(okB)").add("c.example.com", "\(okC)")
            val pinner = b.build()
            """, entries: [.init("a.example.com", okA), .init("b.example.com", okB), .init("c.example.com", okC)]),
        .init(name: "a parameter typed CertificatePinner.Builder", file: "P.kt", source: """
            fun addPins(builder: CertificatePinner.Builder) {
                builder.add("a.example.com", "\(okA)")
            }
            """, entries: [.init("a.example.com", okA)]),
        .init(name: "apply and with blocks", file: "P.kt", source: """
            val p = CertificatePinner.Builder().apply {
                add("a.example.com", "\(okA)")
                this.add("b.example.com", "\(okB)")
            }.build()
            val q = CertificatePinner.Builder()
            with(q) { add("c.example.com", "\(okC)") }
            """, entries: [.init("a.example.com", okA), .init("b.example.com", okB), .init("c.example.com", okC)]),
        .init(name: "spread arrays and named arguments", file: "P.kt", source: """
            val p = CertificatePinner.Builder()
                .add("a.example.com", *arrayOf("\(okA)", "\(okB)"))
                .add("b.example.com", *arrayOf<String>("\(okC)"))
                .add("c.example.com", *listOf("\(okD)").toTypedArray())
                .add(pattern = "d.example.com", pins = *arrayOf("\(okA)"))
                .add(pins = arrayOf("\(okB)"), pattern = "e.example.com")
                .add(pattern = "f.example.com", "\(okC)", "\(okD)")
                .build()
            """, entries: [.init("a.example.com", okA), .init("a.example.com", okB), .init("b.example.com", okC),
                           .init("c.example.com", okD), .init("d.example.com", okA), .init("e.example.com", okB),
                           .init("f.example.com", okC), .init("f.example.com", okD)]),
        .init(name: "an imported Builder and an alias of CertificatePinner", file: "P.kt", source: """
            import okhttp3.CertificatePinner.Builder
            import okhttp3.CertificatePinner as Pinner
            val p = Builder().add("a.example.com", "\(okA)").build()
            val q = Pinner.Builder().add("b.example.com", "\(okB)").build()
            val r = okhttp3.CertificatePinner.Builder().add("c.example.com", "\(okC)").build()
            val s = OkHttpClient.Builder().build()
            """, entries: [.init("a.example.com", okA), .init("b.example.com", okB), .init("c.example.com", okC)]),
        .init(name: "escapes, and patterns in their canonical form", file: "P.kt", source: #"""
            val p = CertificatePinner.Builder()
                .add("a\u002eexample.com", "\#(okA)")
                .add("a\u005fb.Example.COM", "\#(okB)")
                .add("[::1]", "\#(okC)")
                .build()
            """#, entries: [.init("a.example.com", okA), .init("a_b.example.com", okB), .init("::1", okC)]),
        .init(name: "comments and comment-like strings hide nothing and add nothing", file: "P.kt", source: #"""
            /* outer /* nested */ still a comment: CertificatePinner.Builder().add("x.example.com", "\#(okD)") */
            val s = "// CertificatePinner.Builder().add(\"y.example.com\", \"\#(okD)\") /*"
            val c = '"'
            val e = '\''
            val raw = """ " "" CertificatePinner.Builder().add("z.example.com", "\#(okD)") ${ "}" } """"
            val p = CertificatePinner.Builder() // .add("w.example.com", "\#(okD)")
                /* .add("v.example.com", "\#(okD)") */ .add("a.example.com", /* the leaf */ "\#(okA)")
                .build()
            """#, entries: [.init("a.example.com", okA)]),
        .init(name: "raw strings as written, quotes before the closing three included", file: "P.kt", source: #"""
            val quoted = """"quoted""""
            val p = CertificatePinner.Builder()
                .add("""raw.example.com""", """\#(okA)""")
                .add("""q.example.com""", "\#(okB)")
                .build()
            """#, entries: [.init("raw.example.com", okA), .init("q.example.com", okB)]),
        .init(name: "Java: new, a variable, String[] varargs, octal and unicode escapes", file: "P.java", source: #"""
            class P {
                CertificatePinner make() {
                    CertificatePinner.Builder builder = new CertificatePinner.Builder();
                    builder.add("\141.example.com", new String[] {"\#(okA)", "\#(okB)",});
                    builder.add("b.example.com", "\uuu0073ha256/\#(okC.dropFirst(7))");
                    return builder.add("c.example.com", "\#(okD)").build();
                }
                OkHttpClient client = new OkHttpClient.Builder()
                    .certificatePinner(new com.squareup.okhttp.CertificatePinner.Builder()
                        .add("d.example.com", "\#(okA)").build()).build();
            }
            """#, entries: [.init("a.example.com", okA), .init("a.example.com", okB), .init("b.example.com", okC),
                            .init("c.example.com", okD), .init("d.example.com", okA)]),
        .init(name: "Java: comments do not nest, text blocks and chars are skipped", file: "P.java", source: #"""
            /* a comment /* that the first */ class P {
                String doc = """
                    CertificatePinner.Builder().add("x.example.com", "\#(okD)") \"""
                    """;
                char q = '"';
                CertificatePinner p = new CertificatePinner.Builder().add("a.example.com", "\#(okA)").build();
            }
            """#, entries: [.init("a.example.com", okA)]),
        .init(name: "a Kotlin script (.kts) is Kotlin: its comments nest", file: "pins.kts", source: """
            /* /* */ CertificatePinner.Builder().add("x.example.com", "\(okD)") */
            CertificatePinner.Builder().add("a.example.com", "\(okA)").build()
            """, entries: [.init("a.example.com", okA)]),
        .init(name: "add without a pin adds nothing and checks no pattern", file: "P.kt", source: """
            CertificatePinner.Builder().add("*.*.example.com").add("a.example.com", "\(okA)").build()
            """, entries: [.init("a.example.com", okA)]),
    ]

    @Test(arguments: cases)
    func readsWhatTheBuilderAdds(_ testCase: OkHttpSourceCase) throws {
        let (policy, _, _) = try readOkHttpSource(testCase.file, testCase.source)
        #expect(policy.entryTexts == testCase.entries)
    }

    @Test func theFixturesOfEachFormHoldTheSamePinsEachPointingAtItsLine() throws {
        let expected = OkHttpFixtures.entries.map { OkHttpEntryText($0.pattern, $0.pin) }
        let lines = ["Pinning.kt": [23, 24, 27, 29], "Pinning.java": [15, 16, 19, 22], "pins.txt": [3, 3, 5, 6]]
        for (name, pinLines) in lines {
            let path = OkHttpFixtures.path(name)
            let (policy, notes) = try OkHttpSourceReader.read(path, hosts: ["cdn.example.net"])
            #expect(policy.entryTexts == expected, "\(name)")
            #expect(policy.entries.map(\.pin.source.description) == pinLines.map { "\(path):\($0)" }, "\(name)")
            #expect(policy.hosts == ["cdn.example.net"])
            #expect(notes.isEmpty, "\(name): \(notes)")
        }
    }

    @Test func whatCannotBeFollowedIsSaidInANote() throws {
        let (_, noted, path) = try readOkHttpSource("P.kt", """
            val pinner = CertificatePinner.Builder()
                .add("a.example.com", "\(okA)").build()
            val p = CertificatePinner.Builder().add("b.example.com").build()
            """)
        #expect(noted == [
            "\(path): 2 CertificatePinner builders (lines 1, 3): their pins are read as one policy",
            "\(path):3: add(\"b.example.com\") names no pin, so OkHttp adds nothing for it",
        ])
        let (empty, notes, emptyPath) = try readOkHttpSource("P.kt", "val p = CertificatePinner.Builder().build()\n")
        #expect(empty.entries.isEmpty)
        #expect(notes == ["\(emptyPath): no add(…) call on a CertificatePinner builder: nothing is pinned"])
    }

    /// A builder handed on unbuilt is filled where this file cannot see: a host pinned there would be read as
    /// unpinned, and judged safe where the app rejects. It was a note, and the import went on (#19).
    @Test func aBuilderHandedOnUnbuiltIsRefused() throws {
        do {
            let (policy, _, _) = try readOkHttpSource("P.kt", """
                fun pinner() = CertificatePinner.Builder()
                    .add("a.example.com", "\(okA)")
                """)
            Issue.record("read as \(policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.line == 1 && error.column == 16, "\(error)")
            #expect(error.message.hasPrefix("this CertificatePinner.Builder() is neither built here nor kept in a "
                + "variable: pins added to it elsewhere cannot be read"), "\(error)")
        }
    }

    @Test func aSourceFileWithoutABuilderIsRefused() throws {
        do {
            _ = try readOkHttpSource("P.kt", "val s = \"CertificatePinner.Builder()\"\nfun add(a: String) = a\n")
            Issue.record("a file without a builder was read")
        } catch let error as ConfigurationError {
            #expect(error.line == nil)
            #expect(error.message.hasPrefix("no CertificatePinner.Builder() in this Kotlin file"))
        }
    }
}
