import PolicyEngine
import Testing
import TestSupport

/// Pins and patterns kept in constants of the same file, as most public Android code keeps them (#19): a `const val`
/// at the top level or in a companion object, Java's `private static final String`, an object's constant named
/// through the object, and `+` of literals and constants. Each was an "unresolved" refusal; each is read now, with a
/// note naming the constants. A name the file does not fix to one value is still refused.
@Suite("OkHttp pins read from constants of the same file")
struct OkHttpConstantTests {
    static let cases: [OkHttpSourceCase] = [
        .init(name: "top-level const val, and a constant of constants", file: "P.kt", source: """
            private const val HOST = "a.example.com"
            private const val PIN_A = "\(okA)"
            const val HASH_B = "\(okB.dropFirst("sha256/".count))"
            val pinner = CertificatePinner.Builder().add(HOST, PIN_A, "sha256/" + HASH_B).build()
            """, entries: [.init("a.example.com", okA), .init("a.example.com", okB)]),
        .init(name: "a companion object's constants, named bare and through the class", file: "P.kt", source: """
            class Pinning {
                companion object {
                    const val HOST: String = "a.example.com"
                    val PINS = "unused"
                    private const val PIN = "\(okA)"
                    private const val BACKUP = "\(okB)"
                }
                val pinner = CertificatePinner.Builder()
                    .add(Pinning.HOST, PIN)
                    .add(pattern = Pinning.Companion.HOST, pins = *arrayOf(BACKUP))
                    .build()
            }
            """, entries: [.init("a.example.com", okA), .init("a.example.com", okB)]),
        .init(name: "an object's constants", file: "P.kt", source: """
            object Pins {
                const val LEAF = "\(okA)"
            }
            val pinner = CertificatePinner.Builder().add("a.example.com", Pins.LEAF).build()
            """, entries: [.init("a.example.com", okA)]),
        .init(name: "templates naming constants, bare and through an object", file: "P.kt", source: """
            private const val HASH = "\(okA.dropFirst("sha256/".count))"
            object Backup { const val HASH_B = "\(okB.dropFirst("sha256/".count))" }
            val pinner = CertificatePinner.Builder()
                .add("a.example.com", "sha256/$HASH", \"\"\"sha256/${ Backup.HASH_B }\"\"\")
                .build()
            """, entries: [.init("a.example.com", okA), .init("a.example.com", okB)]),
        .init(name: "Java: private static final String, concatenated", file: "P.java", source: """
            class P {
                private static final String HOST = "a.example.com";
                private static final String PREFIX = "sha256/";
                static final String PIN_B = PREFIX + "\(okB.dropFirst("sha256/".count))";
                CertificatePinner pinner = new CertificatePinner.Builder()
                    .add(HOST, PIN_B)
                    .build();
            }
            """, entries: [.init("a.example.com", okB)]),
        // Arrays of pins spread into add: the shape of apps that keep a host's primary and backup pins together.
        .init(name: "a Kotlin array constant spread into add", file: "P.kt", source: """
            private const val HOST = "a.example.com"
            private const val PIN_B = "\(okB)"
            private val PINS = arrayOf("\(okA)", PIN_B)
            val pinner = CertificatePinner.Builder().add(HOST, *PINS).build()
            """, entries: [.init("a.example.com", okA), .init("a.example.com", okB)]),
        .init(name: "a companion's list constant, typed, spread through toTypedArray", file: "P.kt", source: """
            class Pinning {
                companion object {
                    val PINS: List<String> = listOf(
                        "\(okA)",
                        "\(okB)",
                    )
                }
                val pinner = CertificatePinner.Builder().add("a.example.com", *Pinning.PINS.toTypedArray()).build()
            }
            """, entries: [.init("a.example.com", okA), .init("a.example.com", okB)]),
        .init(name: "Java: a static final String[] passed as the varargs", file: "P.java", source: """
            class P {
                private static final String PIN_A = "\(okA)";
                private static final String[] PINS = { PIN_A, "\(okB)" };
                static final String[] OTHER = new String[] { "\(okB)" };
                CertificatePinner pinner = new CertificatePinner.Builder()
                    .add("a.example.com", PINS)
                    .add("b.example.com", OTHER)
                    .build();
            }
            """, entries: [.init("a.example.com", okA), .init("a.example.com", okB), .init("b.example.com", okB)]),
    ]

    @Test(arguments: cases)
    func readsTheConstantsValues(_ testCase: OkHttpSourceCase) throws {
        let (policy, _, _) = try readOkHttpSource(testCase.file, testCase.source)
        #expect(policy.entryTexts == testCase.entries)
    }

    @Test func aNoteNamesTheArrayAPinWasReadFrom() throws {
        let (_, notes, path) = try readOkHttpSource("P.kt", """
            const val PIN_B = "\(okB)"
            val PINS = arrayOf(PIN_B)
            val pinner = CertificatePinner.Builder().add("a.example.com", *PINS).build()
            """)
        #expect(notes == ["\(path):3: the pin \(okB) is read from PINS (line 2), PIN_B (line 1)"])
    }

    /// A name a lambda, a loop or a parameter binds is not the constant of the same name: the app adds what its list
    /// holds at run time, so reading the property's value would judge it by a host or pin it may not have.
    @Test(arguments: [
        ("a Kotlin lambda parameter", "P.kt", """
            private val host = "a.example.com"
            fun pinner(hosts: List<String>) = CertificatePinner.Builder().apply {
                hosts.forEach { host -> add(host, "\(okA)") }
            }.build()
            """),
        ("a Kotlin loop variable", "P.kt", """
            private val host = "a.example.com"
            fun pinner(hosts: List<String>): CertificatePinner {
                val builder = CertificatePinner.Builder()
                for (host in hosts) builder.add(host, "\(okA)")
                return builder.build()
            }
            """),
        ("a Java lambda parameter", "P.java", """
            class P {
                private static final String host = "a.example.com";
                CertificatePinner pinner(List<String> hosts) {
                    CertificatePinner.Builder builder = new CertificatePinner.Builder();
                    hosts.forEach(host -> builder.add(host, "\(okA)"));
                    return builder.build();
                }
            }
            """),
        ("a Java loop variable", "P.java", """
            class P {
                private static final String host = "a.example.com";
                CertificatePinner pinner(List<String> hosts) {
                    CertificatePinner.Builder builder = new CertificatePinner.Builder();
                    for (String host : hosts) builder.add(host, "\(okA)");
                    return builder.build();
                }
            }
            """),
    ])
    func aNameBoundByALambdaOrLoopIsNotTheConstant(_ name: String, _ file: String, _ source: String) throws {
        do {
            let (policy, _, _) = try readOkHttpSource(file, source)
            Issue.record("\(name): read as \(policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.message.hasPrefix("unresolved pattern host ("), "\(name): \(error)")
        }
    }

    @Test func aNoteSaysWhichConstantsAValueWasReadFrom() throws {
        let (_, notes, path) = try readOkHttpSource("P.kt", """
            const val HASH = "\(okB.dropFirst("sha256/".count))"
            const val PIN = "sha256/" + HASH
            val pinner = CertificatePinner.Builder().add("a.example.com", PIN).build()
            """)
        #expect(notes == ["\(path):3: the pin \(okB) is read from PIN (line 2), HASH (line 1)"])
    }

    @Test(arguments: [
        ("a var", "var PIN = \"\(okA)\"\n", "PIN"),
        ("a name declared twice", "fun a() { val PIN = \"\(okA)\" }\nfun b() { val PIN = \"\(okB)\" }\n", "PIN"),
        ("a parameter of the same name", "const val PIN = \"\(okA)\"\nfun f(PIN: String) = PIN\n", "PIN"),
        ("Java without final", "class P { static String PIN = \"\(okA)\"; }\n", "PIN"),
        ("a constant holding a call", "val PIN = pinFor(\"a.example.com\")\n", "PIN"),
        ("another file's object", "", "Other.PIN"),
        ("a BuildConfig field", "", "BuildConfig.PIN"),
        ("a var array", "var PINS = arrayOf(\"\(okA)\")\n", "*PINS"),
        ("Java: an array without final", "class P { static String[] PINS = { \"\(okA)\" }; }\n", "PINS"),
        ("a mutable list", "val PINS = mutableListOf(\"\(okA)\")\n", "*PINS.toTypedArray()"),
        ("a cycle", "val PIN = \"sha256/\" + HASH\nval HASH = PIN\n", "PIN"),
        ("a template computing its value", "val HASHES = listOf(\"x\")\n", "\"sha256/${HASHES[0]}\""),
        ("a template naming a var", "var HASH = \"x\"\n", "\"sha256/$HASH\""),
    ])
    func whatTheFileDoesNotFixIsRefused(_ name: String, _ declarations: String, _ argument: String) throws {
        let file = declarations.hasPrefix("class P") ? "P.java" : "P.kt"
        let use = file == "P.java"
            ? "class Q { CertificatePinner p = new CertificatePinner.Builder().add(\"a.example.com\", \(argument)).build(); }\n"
            : "val pinner = CertificatePinner.Builder().add(\"a.example.com\", \(argument)).build()\n"
        do {
            let (policy, _, _) = try readOkHttpSource(file, declarations + use)
            Issue.record("\(name): read as \(policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.message.hasPrefix("unresolved pin \(argument) ("), "\(name): \(error)")
        }
    }
}
