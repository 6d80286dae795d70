import Foundation
import Testing
import TestSupport

/// End-to-end: `pinctl config export --to trustkit`, and a TrustKit app exported to Android's XML.
@Suite struct TrustKitConfigExportTests {
    /// A policy file with the shop app (its Info.plist) and two OkHttp apps: one TrustKit can take only with losses
    /// (a one-label pattern, a SHA-1 pin), one it would refuse (a single pin where TrustKit requires a backup).
    func withPolicyFile(_ body: (TemporaryDirectory, String) throws -> Void) throws {
        let leaf = LibraryCerts.pin(of: "leaf.pem")
        let root = LibraryCerts.pin(of: "root-ca.pem")
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: """
                version: 1
                apps:
                  - name: ios
                    library: trustkit
                    config: \(TrustKitFixtures.path("Info.plist"))
                  - name: android-sdk
                    library: okhttp
                    policy: { pins: { "*.example.com": [\(leaf), \(root), \(LibraryCerts.sha1Pin(of: "leaf.pem"))] } }
                  - name: single
                    library: okhttp
                    policy: { pins: { "api.example.com": [\(leaf)] } }
                """)
            try body(directory, file)
        }
    }

    func export(_ file: String, _ app: String, _ extra: [String] = []) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["config", "export", "--config", file, "--app", app, "--to", "trustkit"] + extra)
    }

    func importing(_ path: String) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["config", "import", path, "--library", "trustkit", "--name", "ios"])
    }

    @Test("import(export(the shop app)) imports as its Info.plist", arguments: [[], ["--format", "json"]])
    func anExportImportsAsTheFileItCameFrom(_ format: [String]) throws {
        try withPolicyFile { directory, file in
            let out = directory.path(format.isEmpty ? "Info.plist" : "TSKConfiguration.json")
            let exported = try export(file, "ios", format + ["--out", out])
            #expect(exported.status == 0, "\(exported)")
            #expect(exported.stdout.isEmpty && exported.stderr.isEmpty, "\(exported)")
            let original = try importing(TrustKitFixtures.path("Info.plist"))
            let again = try importing(out)
            #expect(again.status == 0, "\(again)")
            #expect(again.stdout == original.stdout, "\(again)")
        }
    }

    @Test func thePlistGoesToStandardOutputWithoutOut() throws {
        try withPolicyFile { _, file in
            let result = try export(file, "ios")
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"), "\(result)")
            #expect(result.stdout.contains("<key>TSKConfiguration</key>"), "\(result)")
        }
    }

    @Test func nothingIsOverwrittenWithoutForce() throws {
        try withPolicyFile { directory, file in
            let out = try directory.write("Info.plist", text: "the app's own file\n")
            let refused = try export(file, "ios", ["--out", out])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains(out), "\(refused)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == "the app's own file\n")

            let forced = try export(file, "ios", ["--out", out, "--force"])
            #expect(forced.status == 0, "\(forced)")
            #expect(try String(contentsOfFile: out, encoding: .utf8).contains("<key>TSKPinnedDomains</key>"))
        }
    }

    @Test func whatTrustKitCannotExpressIsRefusedUnlessLossyAndThenSaidInTheFile() throws {
        try withPolicyFile { directory, file in
            let out = directory.path("Info.plist")
            let refused = try export(file, "android-sdk", ["--out", out])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("trustkit cannot express what android-sdk holds: *.example.com (exactly "
                + "one more label) becomes example.com with TSKIncludeSubdomains"), "\(refused)")
            #expect(refused.stderr.contains("SHA-1 pins of example.com"), "\(refused)")
            #expect(refused.stderr.contains("(give --lossy to write the rest)"), "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: out))

            let lossy = try export(file, "android-sdk", ["--out", out, "--lossy"])
            #expect(lossy.status == 0, "\(lossy)")
            #expect(lossy.stderr.contains("dropped: SHA-1 pins of example.com"), "\(lossy)")
            let plist = try String(contentsOfFile: out, encoding: .utf8)
            #expect(plist.contains("<!-- Not expressible in TrustKit's configuration, dropped: *.example.com (exactly "
                + "one more label)"), "\(plist)")
            #expect(plist.contains("; SHA-1 pins of example.com (TrustKit reads SHA-256 hashes only) -->"), "\(plist)")

            let json = try export(file, "android-sdk", ["--format", "json", "--lossy"])
            #expect(json.status == 0, "\(json)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let dropped = try #require(object["_pinctlDropped"] as? [String], "\(json)")
            #expect(dropped.count == 2, "\(dropped)")

            // TrustKit ignores the key, and so does the import, with a note.
            let path = try directory.write("TSKConfiguration.json", text: json.stdout)
            let reimported = try PinctlProcess.run(["config", "import", path, "--library", "trustkit", "--verbose"])
            #expect(reimported.status == 0, "\(reimported)")
            #expect(reimported.stderr.contains("_pinctlDropped: written by pinctl config export, which dropped: "),
                    "\(reimported)")
        }
    }

    @Test func whatTrustKitWouldRefuseAtLaunchIsRefusedEvenWhenLossy() throws {
        try withPolicyFile { _, file in
            let result = try export(file, "single", ["--lossy"])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("single cannot be written for trustkit: TrustKit would refuse the "
                + "configuration at launch: api.example.com has 1 distinct pin(s); TrustKit requires at least 2"),
                    "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
    }

    /// One policy file feeds both platforms: the shop app as Android's XML judges api.example.com as TrustKit does.
    @Test func theShopAppExportedToAndroidsXMLJudgesAsTrustKit() throws {
        try withPolicyFile { directory, file in
            let out = directory.path("network_security_config.xml")
            let strict = try PinctlProcess.run(["config", "export", "--config", file, "--app", "ios", "--to", "nsc",
                                                "--out", out])
            #expect(strict.status == 2, "\(strict)")
            #expect(strict.stderr.contains("report-only pinning of cdn.example.com (Android always enforces)"))

            let lossy = try PinctlProcess.run(["config", "export", "--config", file, "--app", "ios", "--to", "nsc",
                                               "--out", out, "--lossy"])
            #expect(lossy.status == 0, "\(lossy)")
            for (chain, status) in [("leaf-rekeyed-chain.pem", 0), ("leaf-other-intermediate-chain.pem", 1)] {
                let result = try PinctlProcess.run([
                    "verify", "--library", "nsc", "--nsc-config", out, "--chain", chain, "--host", "api.example.com",
                    "--ca-file", "root-ca.pem", "--at", TestTime.nowText,
                ], in: LibraryCerts.directory)
                #expect(result.status == status, "\(result)")
            }
        }
    }
}
