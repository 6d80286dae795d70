import PolicyEngine
import Testing
import TestSupport

/// A module's build script is split by the same lexer as its Kotlin and Java sources, with the compiler's rules:
/// Kotlin's block comments nest, templates hold quoted strings, Groovy has dollar-slashy and slashy strings and
/// comments that do not nest (#32: the build file's own tokenizer read a field the compiler never sees, and skipped
/// the one it does).
/// Each script hides `okA` from the compiler where the old tokenizer read it, and `okB` is the app's value.
@Suite("Build scripts read as Gradle's compilers read them")
struct GradleBuildScriptLexingTests {
    /// Each of `GradleScripts`: the field the compiler reads is the one read, and the note names its line.
    @Test(arguments: GradleScripts.hiding(okA, behind: okB))
    func theFieldTheCompilerReadsIsTheOneRead(_ script: GradleScripts.Script) throws {
        let (policy, notes, buildPath) = try readWithBuildScript(script.file, script.text)
        #expect(policy.entryTexts == [.init("a.example.com", okB)])
        #expect(notes.contains { $0.hasSuffix("is read from BuildConfig.PIN (\(buildPath):\(script.line))") },
                "\(notes)")
    }

    /// A `/` after `=` begins a slashy string; after a name on the same line it divides. (The hidden value has no `/`,
    /// which would end the slashy string.)
    @Test func aGroovySlashyStringBeginsWhereNoDivisionCan() throws {
        let entries = try readWithBuildScript("build.gradle", """
            def half = total / 2
            android {
                defaultConfig {
                    def pattern = /buildConfigField 'String', 'PIN', '"hidden"'/
                    buildConfigField 'String', 'PIN', '"\(okB)"'
                }
            }
            """).policy.entryTexts
        #expect(entries == [.init("a.example.com", okB)])
    }

    @Test(arguments: [
        ("build.gradle.kts", "android {\n  defaultConfig {\n    /* /* */\n    buildConfigField(\"String\", \"PIN\", "
            + "\"\\\"\(okB)\\\"\")\n  }\n}\n", 3, "unterminated comment: the /* opened here is never closed, so the "
            + "Kotlin compiler refuses the file"),
        ("build.gradle.kts", "android { defaultConfig {\n  val s = \"${ \"}\" \n  buildConfigField(\"String\", "
            + "\"PIN\", \"\\\"\(okB)\\\"\") } }\n", 2, "unterminated string literal"),
        ("build.gradle", "android { defaultConfig {\n  def n = size\n  /buildConfigField 'String', 'PIN', "
            + "'\"\(okA)\"'/\n  buildConfigField 'String', 'PIN', '\"\(okB)\"' } }\n", 3,
         "a / after a line break or a comment"),
        ("build.gradle", "android { defaultConfig {\n  def s = \"a $ b\"\n  buildConfigField 'String', 'PIN', "
            + "'\"\(okB)\"' } }\n", 2, "a $ in a Groovy string literal begins a template"),
        ("build.gradle", "android { defaultConfig {\n  // \\u002a/ buildConfigField 'String', 'PIN', '\"\(okA)\"'\n"
            + "  buildConfigField 'String', 'PIN', '\"\(okB)\"' } }\n", 2, "a \\u escape, which Groovy 2"),
        ("build.gradle", "android { defaultConfig {\n  def s = $/ never closed\n  buildConfigField 'String', 'PIN', "
            + "'\"\(okB)\"' } }\n", 2, "unterminated dollar-slashy string"),
    ])
    func whatTheCompilerRefusesOrPinctlCannotPlaceIsRefused(_ buildFile: String, _ build: String, _ line: Int,
                                                             _ saying: String) throws {
        do {
            let read = try readWithBuildScript(buildFile, build)
            Issue.record("read as \(read.policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.file.hasSuffix("/app/" + buildFile) && error.line == line, "\(error)")
            #expect(error.message.contains(saying), "\(error)")
        }
    }

    /// A string followed by more of an expression is not the field's value: `"\"…\"" + suffix` is computed.
    @Test(arguments: [("build.gradle.kts", "buildConfigField(\"String\", \"PIN\", \"\\\"\(okA)\\\"\" + suffix)"),
                      ("build.gradle", "buildConfigField 'String', 'PIN', '\"\(okA)\"' + suffix")])
    func aConcatenatedValueIsNotOneLiteral(_ buildFile: String, _ call: String) throws {
        do {
            let read = try readWithBuildScript(buildFile, "android { defaultConfig {\n  \(call)\n} }\n")
            Issue.record("read as \(read.policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.message.contains(":2: \"PIN\" is not a String field holding one Java string literal"),
                    "\(error)")
        }
    }
}

/// Writes `build` as app/`buildFile` and `add("a.example.com", BuildConfig.PIN)` as
/// app/src/main/java/com/example/net/P.kt, then reads the source.
func readWithBuildScript(_ buildFile: String, _ build: String, variant: String? = nil)
    throws -> (policy: OkHttpPolicy, notes: [String], buildPath: String)
{
    try TemporaryDirectory.with { directory in
        try directory.makeDirectory("app/src/main/java/com/example/net")
        let buildPath = try directory.write("app/" + buildFile, text: build)
        let path = try directory.write("app/src/main/java/com/example/net/P.kt", text: OkHttpBuildConfigTests.source)
        let (policy, notes) = try OkHttpSourceReader.read(path, hosts: [], variant: variant)
        return (policy, notes, buildPath)
    }
}
