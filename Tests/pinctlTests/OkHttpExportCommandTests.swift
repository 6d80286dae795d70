import Foundation
import Testing
import TestSupport

/// End-to-end: the built `pinctl config export --to okhttp` in each form, `--out` and `--force`, what OkHttp cannot
/// express refused without `--lossy`, and an export imported again.
@Suite struct OkHttpExportCommandTests {
    static let pins = OkHttpFixtures.entries.map(\.pin)

    /// An OkHttp app and a TrustKit app with an expiration, a report-only domain and an excluded subdomain.
    static let hashes = "[\(LibraryCerts.bareBase64(of: "leaf.pem")), \(LibraryCerts.bareBase64(of: "leaf-rekeyed.pem"))]"

    static let policyFile = OkHttpConfigCommandTests.entry(name: "sdk") + """
          - name: ios
            library: trustkit
            policy:
              domains:
                example.com:
                  publicKeyHashes: \(hashes)
                  includeSubdomains: true
                  expirationDate: "2027-01-01"
                api.example.com: { excludeSubdomainFromParentPolicy: true }
                report.example.org:
                  publicKeyHashes: \(hashes)
                  enforcePinning: false

        """

    static let kotlin = """
        // Written by pinctl config export.
        import okhttp3.CertificatePinner

        val certificatePinner = CertificatePinner.Builder()
            .add(
                "api.example.com",
                "\(pins[0])",
                "\(pins[1])",
            )
            .add("**.example.com", "\(pins[2])", "\(pins[3])")
            .build()

        """

    static let java = """
        // Written by pinctl config export.
        import okhttp3.CertificatePinner;

        CertificatePinner certificatePinner = new CertificatePinner.Builder()
            .add(
                "api.example.com",
                "\(pins[0])",
                "\(pins[1])"
            )
            .add("**.example.com", "\(pins[2])", "\(pins[3])")
            .build();

        """

    static let text = """
        # Written by pinctl config export.
        # pattern pin [pin…] per line, as pinctl reads OkHttp pins
        api.example.com  \(pins[0]) \(pins[1])
        **.example.com   \(pins[2]) \(pins[3])

        """

    func withPolicyFile(_ body: (TemporaryDirectory, String) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            try body(directory, try directory.write("pinctl.yaml", text: "version: 1\napps:\n" + Self.policyFile))
        }
    }

    func export(_ file: String, _ arguments: [String]) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["config", "export", "--config", file] + arguments, in: Certs.root)
    }

    @Test func eachFormIsWrittenToStandardOutput() throws {
        try withPolicyFile { _, file in
            let forms = [(nil, Self.kotlin), ("kotlin", Self.kotlin), ("java", Self.java), ("text", Self.text)]
            for (format, expected) in forms {
                let formatting = format.map { ["--format", $0] } ?? []
                let result = try export(file, ["--app", "sdk", "--to", "okhttp"] + formatting)
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout == expected, "\(format ?? "default"): \(result)")
                #expect(result.stderr.isEmpty, "\(result)")
            }
        }
    }

    @Test func outWritesAFileAndOverwritesOnlyWithForce() throws {
        try withPolicyFile { directory, file in
            let out = directory.path("Pinning.java")
            let first = try export(file, ["--app", "sdk", "--to", "okhttp", "--format", "java", "--out", out])
            #expect(first.status == 0, "\(first)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == Self.java)

            let refused = try export(file, ["--app", "sdk", "--to", "okhttp", "--format", "text", "--out", out])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("--force"), "\(refused)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == Self.java, "nothing is overwritten")

            let forced = try export(file, ["--app", "sdk", "--to", "okhttp", "--format", "text", "--out", out,
                                           "--force"])
            #expect(forced.status == 0, "\(forced)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == Self.text)
        }
    }

    @Test(arguments: [("kotlin", "Pinning.kt"), ("java", "Pinning.java"), ("text", "pins.txt")])
    func importingAnExportGivesTheSameAppEntry(_ format: String, _ name: String) throws {
        try withPolicyFile { directory, file in
            let out = directory.path(name)
            let exported = try export(file, ["--app", "sdk", "--to", "okhttp", "--format", format, "--out", out])
            #expect(exported.status == 0, "\(exported)")
            let imported = try PinctlProcess.run(["config", "import", out, "--library", "okhttp", "--name", "sdk"])
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.stdout == OkHttpConfigCommandTests.entry(name: "sdk"), "\(imported)")
        }
    }

    /// okio reads unpadded, URL-safe base64, and apps write pins so: an import and an export to OkHttp write the pin
    /// as the app's file has it, so a reviewer can grep the app for it; TrustKit, which reads only the canonical
    /// form, gets that (#19).
    static let backup = LibraryCerts.pin(of: "leaf-rekeyed.pem")

    @Test func aPinIsWrittenBackToOkHttpAsTheAppWroteIt() throws {
        // leaf.pem's pin, sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=, URL-safe and unpadded.
        let written = "sha256/lrqeOQxRTySAI9KgxVnDx_fA-wd-5BSf1LMliuxkY2I"
        try TemporaryDirectory.with { directory in
            let source = try directory.write("Pinning.kt", text: """
                val pinner = CertificatePinner.Builder().add("api.example.com", "\(written)", "\(Self.backup)").build()
                """)
            let file = try directory.write("pinctl.yaml", text: """
                version: 1
                apps:
                  - { name: sdk, library: okhttp, config: \(source) }
                """)
            let imported = try PinctlProcess.run(["config", "import", source, "--library", "okhttp", "--name", "sdk"])
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.stdout.contains("api.example.com: [\(written), \(Self.backup)]"), "\(imported)")
            let kotlin = try export(file, ["--app", "sdk", "--to", "okhttp", "--format", "kotlin"])
            #expect(kotlin.status == 0, "\(kotlin)")
            #expect(kotlin.stdout.contains("\n        \"\(written)\",\n"), "\(kotlin)")
            // Whitespace okio skips is not kept: a text list could not hold it (found by FuzzOkHttpSource).
            let spaced = try directory.write("Spaced.kt", text: """
                val pinner = CertificatePinner.Builder().add("api.example.com", "sha256/\\tlrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=").build()
                """)
            let canonical = try PinctlProcess.run(["config", "import", spaced, "--library", "okhttp"])
            #expect(canonical.stdout.contains("api.example.com: [\(LibraryCerts.pin(of: "leaf.pem"))]"), "\(canonical)")
            let trustKit = try export(file, ["--app", "sdk", "--to", "trustkit", "--format", "json"])
            #expect(trustKit.status == 0, "\(trustKit)")
            #expect(trustKit.stdout.contains("\"lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=\""), "\(trustKit)")
        }
    }

    @Test func aTrustKitAppIsRefusedWhatOkHttpCannotSayUnlessLossy() throws {
        let losses = [
            "the expiration of example.com's pins on 2027-01-01 (OkHttp's pins never expire)",
            "report-only pinning of report.example.org (OkHttp always enforces its pins)",
            "the exclusion of api.example.com from the pins of **.example.com (OkHttp cannot unpin a host a pattern "
                + "covers)",
        ]
        try withPolicyFile { directory, file in
            let out = directory.path("Pinning.kt")
            let refused = try export(file, ["--app", "ios", "--to", "okhttp", "--out", out])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr == "pinctl: okhttp cannot express what ios holds: " + losses.joined(separator: "; ")
                + " (give --lossy to write the rest)\n", "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: out), "a refused export writes nothing")

            let lossy = try export(file, ["--app", "ios", "--to", "okhttp", "--lossy"])
            #expect(lossy.status == 0, "\(lossy)")
            #expect(lossy.stderr == losses.map { "warning: dropped: \($0)\n" }.joined(), "\(lossy)")
            let leaf = LibraryCerts.pin(of: "leaf.pem")
            let rekeyed = LibraryCerts.pin(of: "leaf-rekeyed.pem")
            #expect(lossy.stdout == """
                // Written by pinctl config export.
                // Not expressible in OkHttp, dropped: the expiration of example.com's pins on 2027-01-01 (OkHttp's pins never expire);
                //   report-only pinning of report.example.org (OkHttp always enforces its pins); the exclusion of api.example.com from
                //   the pins of **.example.com (OkHttp cannot unpin a host a pattern covers)
                import okhttp3.CertificatePinner

                val certificatePinner = CertificatePinner.Builder()
                    .add(
                        "**.example.com",
                        "\(leaf)",
                        "\(rekeyed)",
                    )
                    .add(
                        "report.example.org",
                        "\(leaf)",
                        "\(rekeyed)",
                    )
                    .build()

                """, "\(lossy)")
        }
    }
}
