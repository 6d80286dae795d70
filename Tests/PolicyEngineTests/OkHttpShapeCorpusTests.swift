import Foundation
import PolicyEngine
import TestSupport
import Testing

/// A `shape_*` file of Tests/Fixtures/okhttp/ (README.md names its origin) and what OkHttp's builder holds after the
/// app runs it, written by hand; or, when only the running app knows a value, where pinctl must stop.
struct OkHttpShapeCase: Sendable, CustomTestStringConvertible {
    let file: String
    let entries: [OkHttpEntryText]

    init(_ file: String, _ entries: [(String, String)]) {
        self.file = file
        self.entries = entries.map { OkHttpEntryText($0.0, LibraryCerts.pinText($0.1)) }
    }

    var testDescription: String { file }
}

/// A shape pinctl refuses: the line and column of the value it cannot know, and words of the reason.
struct OkHttpShapeRefusal: Sendable, CustomTestStringConvertible {
    let file: String
    let line: Int
    let column: Int
    let words: String

    var testDescription: String { file }
}

extension LibraryCerts {
    /// `leaf.pem` → its sha256/ pin; `sha1:root-ca.pem` → its sha1/ pin (spki-pins.txt, made by the openssl CLI).
    static func pinText(_ name: String) -> String {
        name.hasPrefix("sha1:") ? sha1Pin(of: String(name.dropFirst(5))) : pin(of: name)
    }
}

let okHttpShapeCases: [OkHttpShapeCase] = [
    OkHttpShapeCase("shape_java_method_local.java", [("api.example.com", "leaf.pem")]),
    OkHttpShapeCase("shape_kotlin_hilt_provides.kt", [("api.example.com", "intermediate-ca.pem"),
                                                      ("api.example.com", "other-intermediate-ca.pem")]),
    OkHttpShapeCase("shape_kotlin_object_constants.kt", [("example.com", "leaf.pem"),
                                                         ("example.com", "intermediate-ca.pem"),
                                                         ("example.com", "root-ca.pem")]),
    OkHttpShapeCase("shape_kotlin_const_template.kt", [("api.example.com", "leaf.pem")]),
    OkHttpShapeCase("shape_java_constants_concat.java", [("api.example.com", "leaf-rekeyed.pem")]),
    // The release pinner is what ships; CertificatePinner.DEFAULT adds nothing.
    OkHttpShapeCase("shape_kotlin_debug_switch.kt", [("www.example.com", "root-ca.pem"),
                                                     ("api.example.com", "root-ca.pem"),
                                                     ("uploads.api.example.com", "root-ca.pem")]),
    OkHttpShapeCase("shape_kotlin_inline_client.kt", [("*.example.com", "other-intermediate-ca.pem")]),
    OkHttpShapeCase("shape_java_activity_try.java", [("www.example.com", "other-root-intermediate-ca.pem")]),
    OkHttpShapeCase("shape_kotlin_recipe_property.kt", [("api.example.com", "leaf.pem"),
                                                        ("api.example.com", "intermediate-ca.pem"),
                                                        ("api.example.com", "root-ca.pem")]),
    OkHttpShapeCase("shape_java_recipe_field.java", [("www.example.com", "other-root-ca.pem"),
                                                     ("www.example.com", "other-root-intermediate-ca.pem")]),
    OkHttpShapeCase("shape_java_okhttp2.java", [("api.example.com", "sha1:intermediate-ca.pem"),
                                                ("api.example.com", "sha1:root-ca.pem")]),
    OkHttpShapeCase("shape_java_lazy_singleton.java", [("example.com", "leaf-rekeyed.pem")]),
    OkHttpShapeCase("shape_java_generated_constants.java", [("api.example.com", "sha1:intermediate-ca.pem"),
                                                            ("api.example.com", "sha1:root-ca.pem")]),
]

let okHttpShapeRefusals: [OkHttpShapeRefusal] = [
    // A Java local that is not final may be reassigned before the add: DESIGN §8 resolves constants only.
    OkHttpShapeRefusal(file: "shape_java_host_variable.java", line: 23, column: 18,
                       words: "unresolved pattern hostname"),
    OkHttpShapeRefusal(file: "shape_java_pin_map_loop.java", line: 27, column: 21, words: "entry.getKey"),
    OkHttpShapeRefusal(file: "shape_java_bare_hash_loop.java", line: 28, column: 29, words: "host"),
    OkHttpShapeRefusal(file: "shape_kotlin_wrapper_function.kt", line: 15, column: 25, words: "pattern"),
    OkHttpShapeRefusal(file: "shape_kotlin_buildconfig.kt", line: 11, column: 18, words: "BuildConfig.AVATAR_HOST"),
]

@Suite("OkHttp shapes of public apps")
struct OkHttpShapeCorpusTests {
    @Test("each shape reads as the app pins", arguments: okHttpShapeCases)
    func eachShapeReadsAsTheAppPins(_ shape: OkHttpShapeCase) throws {
        let (policy, _) = try OkHttpSourceReader.read(OkHttpFixtures.path(shape.file), hosts: [])
        #expect(policy.entryTexts == shape.entries)
    }

    @Test("each shape whose values only the running app knows is refused there", arguments: okHttpShapeRefusals)
    func eachUnknowableShapeIsRefusedThere(_ refusal: OkHttpShapeRefusal) {
        do {
            let (policy, _) = try OkHttpSourceReader.read(OkHttpFixtures.path(refusal.file), hosts: [])
            Issue.record("read as \(policy.entryTexts)")
        } catch {
            #expect(error.line == refusal.line && error.column == refusal.column, "\(error)")
            #expect(error.message.contains(refusal.words), "\(error)")
        }
    }

    /// The BuildConfig shape reads once the build's values are given (`--define`, `defines:`), named as written.
    @Test func theBuildConfigShapeReadsWithItsDefines() throws {
        let (policy, _) = try OkHttpSourceReader.read(
            OkHttpFixtures.path("shape_kotlin_buildconfig.kt"), hosts: [],
            defines: ["BuildConfig.AVATAR_HOST": "api.example.com",
                      "BuildConfig.AVATAR_SPKI_PIN": LibraryCerts.pin(of: "leaf.pem")])
        #expect(policy.entryTexts == [OkHttpEntryText("api.example.com", LibraryCerts.pin(of: "leaf.pem"))])
    }

    /// `val b = cached ?: CertificatePinner.Builder()` keeps the new builder in b; its adds were dropped (#19).
    @Test func aBuilderKeptThroughAnElvisIsFollowed() throws {
        let (policy, _, _) = try readOkHttpSource("P.kt", """
            class C {
                private var cached: CertificatePinner.Builder? = null
                fun pins() {
                    val builder = cached ?: CertificatePinner.Builder()
                    builder.add("a.example.com", "\(okA)")
                }
            }
            """)
        #expect(policy.entryTexts == [OkHttpEntryText("a.example.com", okA)])
    }

    @Test func everyShapeFileHasAnExpectationAndARowInTheReadme() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: OkHttpFixtures.directory)
        let files = Set(names.filter { $0.hasPrefix("shape_") })
        #expect(files == Set(okHttpShapeCases.map(\.file) + okHttpShapeRefusals.map(\.file)))
        // With Pinning.kt and Pinning.java, the corpus holds 20 shapes.
        #expect(files.count + 2 >= 20)
        let readme = try String(contentsOfFile: OkHttpFixtures.path("README.md"), encoding: .utf8)
        for file in files { #expect(readme.contains("`\(file)`"), "\(file) has no row in the README") }
    }
}
