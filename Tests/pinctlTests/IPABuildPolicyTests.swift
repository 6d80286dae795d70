import Foundation
import Testing
import TestSupport

/// A policy file's `build:` (#35, DESIGN §14): the app's policy read from the .ipa itself by check, verify and lint,
/// every library it ships (TrustKit and ATS in the Info.plist, the bundle's certificates for AFNetworking and
/// Alamofire) judged as the same files given alone are, and each pin named by the archive entry it came from.
/// Pins are openssl's (certs/libraries/spki-pins.txt).
@Suite struct IPABuildPolicyTests {
    static let intermediate = LibraryCerts.bareBase64(of: "intermediate-ca.pem")
    static let backup = "YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="

    /// An IPA pinning the libraries' intermediate CA four ways: TrustKit, ATS (read leniently: `NSIncludesSubdomains`
    /// written as a string, so only the plist says it), and its certificate in the bundle.
    static func ipa(in directory: TemporaryDirectory) throws -> String {
        let info = try directory.write("info.json", text: """
            {"NSAppTransportSecurity": {"NSPinnedDomains": {"api.example.com": {"NSIncludesSubdomains": "YES",
              "NSPinnedCAIdentities": [{"SPKI-SHA256-BASE64": "\(intermediate)"}]}}},
             "TSKConfiguration": {"TSKPinnedDomains": {"api.example.com": {
               "TSKPublicKeyHashes": ["\(intermediate)", "\(backup)"]}}}}
            """)
        let certificate = directory.path("intermediate.cer")
        let der = try Subprocess.run("/usr/bin/env", ["openssl", "x509", "-in", LibraryCerts.path("intermediate-ca.pem"),
                                                      "-outform", "DER", "-out", certificate], in: directory.path)
        try #require(der.status == 0, "\(der)")
        let path = directory.path("App.ipa")
        let made = try Subprocess.run(Certs.root + "/scripts/make_ipa.py", [
            path, "--name", "App", "--info", info, "--binary-plist", "--version", "3.0", "--resource", certificate,
        ], in: Certs.root)
        try #require(made.status == 0, "\(made)")
        return path
    }

    /// The policy file `config import` writes for the IPA, for api.example.com.
    static func policyFile(in directory: TemporaryDirectory) throws -> (file: String, ipa: String) {
        let ipa = try ipa(in: directory)
        let imported = try PinctlProcess.run(["config", "import", ipa, "--host", "api.example.com", "--name", "app"])
        try #require(imported.status == 0, "\(imported)")
        let file = try directory.write("pinctl.yaml", text: "apps:\n" + imported.stdout)
        return (file, ipa)
    }

    func verify(_ file: String, chain: String) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--config", file, "--chain", LibraryCerts.path(chain), "--host",
                               "api.example.com", "--at", TestTime.nowText, "--ca-file",
                               LibraryCerts.path("root-ca.pem")])
    }

    @Test func importWritesAnEntryPerLibraryNamingTheArchiveWhereInlineCannotSayIt() throws {
        try TemporaryDirectory.with { directory in
            let (file, ipa) = try Self.policyFile(in: directory)
            let text = try String(contentsOfFile: file, encoding: .utf8)
            // Hand-written: AFNetworking loads the .cer, Alamofire too; ATS read leniently stays in the archive.
            for entry in ["  - name: app-afnetworking\n    versions: [3.0]\n    library: afnetworking\n    platforms: "
                          + "[ios@14.0-]\n    hosts: [api.example.com]\n    build: \(ipa)\n    mode: publickey\n",
                          "  - name: app-alamofire\n    versions: [3.0]\n    library: alamofire\n    platforms: "
                          + "[ios@14.0-]\n    hosts: [api.example.com]\n    build: \(ipa)\n",
                          "  - name: app-ats\n    versions: [3.0]\n    library: ats\n    platforms: [ios@14.0-]\n"
                          + "    hosts: [api.example.com]\n    build: \(ipa)\n",
                          "  - name: app-trustkit\n    versions: [3.0]\n    library: trustkit\n"] {
                #expect(text.contains(entry), "\(entry)\nin\n\(text)")
            }
        }
    }

    /// Judged without platforms (no snapshot needed): each library as it reads what the build ships.
    @Test func verifyJudgesWhatTheBuildShipsAndLintNamesTheEntryAPinCameFrom() throws {
        try TemporaryDirectory.with { directory in
            let (file, ipa) = try Self.policyFile(in: directory)
            let unplatformed = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
                .filter { !$0.contains("platforms:") }.joined(separator: "\n") + "\n"
            try unplatformed.write(toFile: file, atomically: true, encoding: .utf8)

            let pinned = try verify(file, chain: "leaf-chain.pem")
            #expect(pinned.status == 0, "\(pinned)")
            for app in ["app-afnetworking", "app-alamofire", "app-ats", "app-trustkit"] {
                #expect(pinned.stdout.contains(try Regex("\(app) +\\w+ +3.0 +TRUSTED")), "\(app): \(pinned)")
            }
            #expect(pinned.stdout.contains("pin \(ipa)!Payload/App.app/intermediate.cer matched certificate #1"),
                    "\(pinned)")
            // Four apps of one build: the archive is opened once (strace).
            let opened = try PlanReadsOnceTests.opens(
                ["verify", "--config", file, "--chain", LibraryCerts.path("leaf-chain.pem"), "--host", "api.example.com",
                 "--at", TestTime.nowText, "--ca-file", LibraryCerts.path("root-ca.pem")], status: 0)
            #expect(opened[ipa] == 1, "\(opened.filter { $0.key.hasSuffix(".ipa") })")

            let other = try verify(file, chain: "leaf-other-intermediate-chain.pem")
            #expect(other.status == 1, "\(other)")
            #expect(!other.stdout.contains("TRUSTED"), "\(other)")

            let lint = try PinctlProcess.run(["lint", "--config", file, "--chain",
                                              LibraryCerts.path("leaf-other-intermediate-chain.pem"), "--host",
                                              "api.example.com", "--at", TestTime.nowText, "--ca-file",
                                              LibraryCerts.path("root-ca.pem")])
            #expect(lint.status == 1, "\(lint)")
            #expect(lint.stdout.contains("(\(ipa)!Payload/App.app/intermediate.cer)"), "\(lint)")
            #expect(lint.stdout.contains("(\(ipa)!Payload/App.app/Info.plist"), "\(lint)")
        }
    }

    /// A build that does not configure the app's library, or cannot be read, stops the policy file at the entry.
    @Test func aBuildWithoutTheLibraryIsAnInputErrorAtTheEntry() throws {
        try TemporaryDirectory.with { directory in
            let ipa = try Self.ipa(in: directory)
            let file = try directory.write("pinctl.yaml", text: """
                apps:
                  - name: android
                    library: okhttp
                    build: \(ipa)
                """)
            let result = try verify(file, chain: "leaf-chain.pem")
            #expect(result.status == 2, "\(result)")
            // OkHttp pins are read from an APK's DEX: an IPA has none.
            #expect(result.stderr.contains("pinctl.yaml:4:12: apps[0].build: configures no OkHttp pinning pinctl reads\n"),
                    "\(result)")

            let missing = try directory.write("missing.yaml", text: """
                apps:
                  - name: ios
                    library: trustkit
                    build: gone.ipa
                """)
            let gone = try verify(missing, chain: "leaf-chain.pem")
            #expect(gone.status == 2, "\(gone)")
            #expect(gone.stderr.contains("missing.yaml:4:12: apps[0].build: no such file"), "\(gone)")

            let both = try directory.write("both.yaml", text: """
                apps:
                  - name: ios
                    library: trustkit
                    config: Info.plist
                    build: \(ipa)
                """)
            let twice = try verify(both, chain: "leaf-chain.pem")
            #expect(twice.status == 2, "\(twice)")
            #expect(twice.stderr.contains("app ios has config: and build:; give one"), "\(twice)")
        }
    }
}
