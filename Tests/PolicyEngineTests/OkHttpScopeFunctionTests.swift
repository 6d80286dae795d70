import PolicyEngine
import Testing
import TestSupport

/// The shapes public Android code adds pins in beyond `.add()` chains and `apply`: Kotlin's scope functions, `with`
/// on a new builder, extension functions on the builder and Java's double-brace initialization. Each was read as
/// `pins: {}` (#19: a gate over such a file said nothing breaks); now each is read, and a member pinctl cannot follow
/// on a new builder refuses the file.
@Suite("OkHttp pins added through scope functions, extensions and double braces")
struct OkHttpScopeFunctionTests {
    static let cases: [OkHttpSourceCase] = [
        .init(name: "also { it.add() }", file: "P.kt", source: """
            val pinner = CertificatePinner.Builder().also {
                it.add("a.example.com", "\(okA)")
                it.add("b.example.com", "\(okB)")
            }.build()
            """, entries: [.init("a.example.com", okA), .init("b.example.com", okB)]),
        .init(name: "also { b -> b.add() } with a typed parameter, chained on", file: "P.kt", source: """
            val pinner = CertificatePinner.Builder()
                .also { b: CertificatePinner.Builder -> b.add("a.example.com", "\(okA)") }
                .add("b.example.com", "\(okB)")
                .build()
            """, entries: [.init("a.example.com", okA), .init("b.example.com", okB)]),
        .init(name: "let { it.add() }", file: "P.kt", source: """
            val pinner = CertificatePinner.Builder().let { it.add("a.example.com", "\(okA)") }.build()
            """, entries: [.init("a.example.com", okA)]),
        .init(name: "run { add() }", file: "P.kt", source: """
            val pinner = CertificatePinner.Builder().run {
                add("b.example.com", "\(okB)")
                build()
            }
            """, entries: [.init("b.example.com", okB)]),
        // Neither kept nor built outside the lambda: the block's value, `build()`, is the pinner (#35).
        .init(name: "run { add(); build() } handed on", file: "P.kt", source: """
            fun client() = OkHttpClient.Builder()
                .certificatePinner(CertificatePinner.Builder().run {
                    add("a.example.com", "\(okA)"); add("b.example.com", "\(okB)")
                    build()
                })
                .build()
            """, entries: [.init("a.example.com", okA), .init("b.example.com", okB)]),
        .init(name: "let { it.add(); it.build() } returned", file: "P.kt", source: """
            fun pinner(): CertificatePinner = CertificatePinner.Builder().let { b ->
                b.add("a.example.com", "\(okA)")
                b.build()
            }
            """, entries: [.init("a.example.com", okA)]),
        .init(name: "run { this.add(); this.build() } returned", file: "P.kt", source: """
            fun pinner() = CertificatePinner.Builder().run { this.add("b.example.com", "\(okB)"); this.build() }
            """, entries: [.init("b.example.com", okB)]),
        .init(name: "with on a new builder", file: "P.kt", source: """
            val pinner = with(CertificatePinner.Builder()) {
                add("a.example.com", "\(okA)")
                build()
            }
            """, entries: [.init("a.example.com", okA)]),
        .init(name: "a builder variable's also block", file: "P.kt", source: """
            val builder = CertificatePinner.Builder()
            builder.also { pins -> pins.add("a.example.com", "\(okA)") }
            val pinner = builder.build()
            """, entries: [.init("a.example.com", okA)]),
        .init(name: "extension functions on the builder, block and expression bodies", file: "P.kt", source: """
            fun CertificatePinner.Builder.addProductionPins(): CertificatePinner.Builder {
                add("a.example.com", "\(okA)")
                return this
            }
            fun CertificatePinner.Builder.addBackupPin() = add("b.example.com", "\(okB)")
            val pinner = CertificatePinner.Builder().addProductionPins().addBackupPin().build()
            """, entries: [.init("a.example.com", okA), .init("b.example.com", okB)]),
        .init(name: "Java double-brace initialization", file: "P.java", source: """
            class P {
                CertificatePinner pinner = new CertificatePinner.Builder() {{
                    add("a.example.com", "\(okA)");
                    add("b.example.com", "\(okB)");
                }}.build();
            }
            """, entries: [.init("a.example.com", okA), .init("b.example.com", okB)]),
    ]

    @Test(arguments: cases)
    func readsWhatTheBuilderAdds(_ testCase: OkHttpSourceCase) throws {
        let (policy, notes, _) = try readOkHttpSource(testCase.file, testCase.source)
        #expect(policy.entryTexts == testCase.entries)
        #expect(notes.isEmpty, "\(notes)")
    }

    /// A block whose value is not the built pinner leaves the builder unbuilt: `apply` and `also` give the builder
    /// itself back, and a `build()` that is not the block's last expression is not its value.
    @Test(arguments: [
        "fun p() = CertificatePinner.Builder().apply { add(\"a.example.com\", \"\(okA)\"); build() }\n",
        "fun p() = CertificatePinner.Builder().also { it.add(\"a.example.com\", \"\(okA)\"); it.build() }\n",
        "fun p() = CertificatePinner.Builder().run { add(\"a.example.com\", \"\(okA)\"); build(); this }\n",
        "fun p() = CertificatePinner.Builder().let { it.add(\"a.example.com\", \"\(okA)\"); other.build() }\n",
    ])
    func aBlockWhoseValueIsNotTheBuiltPinnerIsStillRefused(source: String) throws {
        do {
            let (policy, _, _) = try readOkHttpSource("P.kt", source)
            Issue.record("read as \(policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.message.hasPrefix("this CertificatePinner.Builder() is neither built here nor kept"),
                    "\(error)")
        }
    }

    @Test(arguments: [
        ("val p = CertificatePinner.Builder().also(::addPins).build()\n", 1, 37, ".also"),
        ("val p = CertificatePinner.Builder()\n    .addPins()\n    .build()\n", 2, 6, ".addPins"),
    ])
    func aMemberItCannotFollowOnANewBuilderRefusesTheFile(source: String, line: Int, column: Int, member: String)
        throws
    {
        do {
            let (policy, _, _) = try readOkHttpSource("P.kt", source)
            Issue.record("read as \(policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message.hasPrefix("pinctl cannot follow \(member) on a CertificatePinner.Builder, so the "
                + "pins it adds would not be read"), "\(error)")
        }
    }
}
