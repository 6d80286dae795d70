import Foundation
import Testing
import TestSupport

/// End-to-end: a module's build script shows the chain's pin where Gradle's compiler never reads it (a nested Kotlin
/// comment, a template's quoted string, a Groovy dollar-slashy string, a GString template after a Groovy comment) and
/// sets another where it does. `verify --config` judges the app by the pin it has, and rejects the chain (#32: it said
/// TRUSTED).
@Suite struct GradleBuildScriptCommandTests {
    static let leaf = LibraryCerts.pin(of: "leaf.pem")
    static let other = LibraryCerts.pin(of: "leaf-rekeyed.pem")

    @Test(arguments: GradleScripts.hiding(leaf, behind: other))
    func verifyJudgesTheFieldTheCompilerReads(_ script: GradleScripts.Script) throws {
        try TemporaryDirectory.with { directory in
            try directory.makeDirectory("app/src/main/java/net")
            let build = try directory.write("app/" + script.file, text: script.text)
            let source = try directory.write("app/src/main/java/net/Pinning.kt", text: """
                val pinner = CertificatePinner.Builder().add("api.example.com", BuildConfig.PIN).build()
                """)
            let result = try OkHttpVariantCommandTests.verify(source, setting: "", in: directory)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("app  okhttp   -         REJECTED  public-key-not-pinned"), "\(result)")
            #expect(result.stdout.contains("Pinned certificates for api.example.com:\n          \(Self.other)\n"),
                    "\(result)")
            // The pin's note names the line of the field the compiler reads.
            let imported = try PinctlProcess.run(["config", "import", source, "--library", "okhttp", "--verbose"])
            #expect(imported.stderr.contains("BuildConfig.PIN (\(build):\(script.line))"), "\(imported)")
        }
    }

    /// What the compiler refuses is refused, naming the build file and the line, and nothing is judged.
    @Test func anUnterminatedCommentInTheBuildScriptIsRefused() throws {
        try TemporaryDirectory.with { directory in
            try directory.makeDirectory("app/src/main/java/net")
            let build = try directory.write("app/build.gradle.kts", text: """
                android {
                    defaultConfig {
                        /* retired: /* see below */ buildConfigField("String", "PIN", "\\"\(Self.leaf)\\"")
                    }
                }
                """)
            let source = try directory.write("app/src/main/java/net/Pinning.kt", text: """
                val pinner = CertificatePinner.Builder().add("api.example.com", BuildConfig.PIN).build()
                """)
            let result = try OkHttpVariantCommandTests.verify(source, setting: "", in: directory)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(build):3:9: unterminated comment: the /* opened here is never closed"),
                    "\(result)")
        }
    }
}
