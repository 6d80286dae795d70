import Foundation
import Testing
import TestSupport

/// End-to-end: an OkHttp source whose pin is `BuildConfig.PIN`, set per build type in the module's build.gradle.kts;
/// `config import --variant` and a policy file's `variant:` pick the build, and without one pinctl refuses (#19).
@Suite struct OkHttpVariantCommandTests {
    static let leaf = LibraryCerts.pin(of: "leaf.pem")
    static let other = LibraryCerts.pin(of: "leaf-rekeyed.pem")

    /// app/build.gradle.kts (release pins the leaf's key, debug the re-keyed one) and the source below it.
    static func withModule(_ body: (TemporaryDirectory, String) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            try directory.makeDirectory("app/src/main/java/net")
            try directory.write("app/build.gradle.kts", text: """
                android {
                    buildTypes {
                        release { buildConfigField("String", "PIN", "\\"\(leaf)\\"") }
                        debug { buildConfigField("String", "PIN", "\\"\(other)\\"") }
                    }
                }
                """)
            let source = try directory.write("app/src/main/java/net/Pinning.kt", text: """
                val pinner = CertificatePinner.Builder().add("api.example.com", BuildConfig.PIN).build()
                """)
            try body(directory, source)
        }
    }

    /// `verify --config` of leaf-chain.pem with a policy file whose one app reads `source` with `setting`.
    static func verify(_ source: String, setting: String, in directory: TemporaryDirectory) throws
        -> PinctlProcess.Result
    {
        let file = try directory.write("pinctl.yaml", text: """
            version: 1
            anchors: { ca-files: [\(LibraryCerts.path("root-ca.pem"))] }
            apps:
              - name: app
                library: okhttp
                config: \(source)
                \(setting)
            """)
        return try PinctlProcess.run(["verify", "--config", file, "--chain", LibraryCerts.path("leaf-chain.pem"),
                                      "--host", "api.example.com", "--at", TestTime.nowText])
    }

    @Test func importReadsTheVariantGivenAndRefusesToGuess() throws {
        try Self.withModule { _, source in
            let release = try PinctlProcess.run(["config", "import", source, "--library", "okhttp", "--name", "app",
                                                 "--variant", "release"])
            #expect(release.status == 0, "\(release)")
            #expect(release.stdout.contains("api.example.com: [\(Self.leaf)]"), "\(release)")
            let debug = try PinctlProcess.run(["config", "import", source, "--library", "okhttp", "--name", "app",
                                               "--variant", "debug"])
            #expect(debug.stdout.contains("api.example.com: [\(Self.other)]"), "\(debug)")

            let unsaid = try PinctlProcess.run(["config", "import", source, "--library", "okhttp"])
            #expect(unsaid.status == 2 && unsaid.stdout.isEmpty, "\(unsaid)")
            #expect(unsaid.stderr.contains("\(source):1:65: unresolved pin BuildConfig.PIN (a BuildConfig field: "),
                    "\(unsaid)")
            #expect(unsaid.stderr.contains("\"PIN\" differs between release, debug: give --variant"), "\(unsaid)")
        }
    }

    /// Run from inside the source folder, the file's path is short: its module's build file is still found above it,
    /// beyond the working directory (the walk stopped at "." and the BuildConfig field was unresolved).
    @Test func theBuildFileIsFoundAboveTheWorkingDirectory() throws {
        try Self.withModule { directory, _ in
            let result = try PinctlProcess.run(["config", "import", "net/Pinning.kt", "--library", "okhttp",
                                                "--variant", "release", "--verbose"],
                                               in: directory.path("app/src/main/java"))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("api.example.com: [\(Self.leaf)]"), "\(result)")
            #expect(result.stderr.contains("BuildConfig.PIN (../../../build.gradle.kts:3)"), "\(result)")
        }
    }

    /// The verdict names where the matching pin's value came from, as lint and every output name a pin's place (#19:
    /// each resolved value says where it came from).
    @Test func theVerdictNamesTheBuildFileThePinCameFrom() throws {
        try Self.withModule { directory, source in
            let result = try Self.verify(source, setting: "variant: release", in: directory)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("\(source):1 (from BuildConfig.PIN (\(directory.path("app/build.gradle.kts"))"
                + ":3)) matched certificate #0"), "\(result)")
        }
    }

    @Test func aPolicyFilesVariantPicksTheBuildJudged() throws {
        try Self.withModule { directory, source in
            for (variant, status) in [("release", 0), ("debug", 1)] {
                let result = try Self.verify(source, setting: "variant: \(variant)", in: directory)
                #expect(result.status == Int32(status), "\(variant): \(result)")
            }
        }
    }

    @Test func aDefineGivesTheValueOfANameTheFileDoesNotFix() throws {
        try Self.withModule { directory, source in
            let defined = try PinctlProcess.run(["config", "import", source, "--library", "okhttp", "--name", "app",
                                                 "--define", "BuildConfig.PIN=\(Self.other)", "--verbose"])
            #expect(defined.status == 0, "\(defined)")
            #expect(defined.stdout.contains("api.example.com: [\(Self.other)]"), "\(defined)")
            #expect(defined.stderr.contains("the pin \(Self.other) is read from BuildConfig.PIN (defined)"),
                    "\(defined)")

            let malformed = try PinctlProcess.run(["config", "import", source, "--library", "okhttp",
                                                   "--define", "BuildConfig.PIN"])
            #expect(malformed.status == 2 && malformed.stderr.contains("--define BuildConfig.PIN: expected NAME=VALUE"),
                    "\(malformed)")

            let trusted = try Self.verify(source, setting: "defines: { BuildConfig.PIN: \"\(Self.leaf)\" }",
                                          in: directory)
            #expect(trusted.status == 0, "\(trusted)")
        }
    }
}
