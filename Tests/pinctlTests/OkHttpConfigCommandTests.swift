import Foundation
import Testing
import TestSupport

/// End-to-end: the built `pinctl config import` and `config export` with OkHttp's forms (Tests/Fixtures/okhttp/), and
/// `config:` naming a Kotlin file in a policy file, judged as the same pins given inline (certs/libraries/ PKI).
@Suite struct OkHttpConfigCommandTests {
    static let at = ["--at", TestTime.nowText]

    /// The app entry of the fixtures' pins, as `config import` prints it, written by hand.
    static func entry(name: String) -> String {
        let pins = OkHttpFixtures.entries.map(\.pin)
        return """
              - name: \(name)
                library: okhttp
                policy:
                  pins:
                    api.example.com: [\(pins[0]), \(pins[1])]
                    '**.example.com': [\(pins[2]), \(pins[3])]

            """
    }

    static func importing(_ arguments: [String]) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["config", "import"] + arguments, in: Certs.root)
    }

    /// A policy file beside a copy of Pinning.kt, with root-ca.pem standing for the system store.
    static func withPolicyFile(_ apps: String, _ body: (TemporaryDirectory, String) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            try directory.write("Pinning.kt", bytes: Array(try Data(contentsOf: URL(fileURLWithPath:
                OkHttpFixtures.path("Pinning.kt")))))
            let file = try directory.write("pinctl.yaml", text: """
                version: 1
                anchors: { ca-files: [\(LibraryCerts.path("root-ca.pem"))] }
                apps:

                """ + apps)
            try body(directory, file)
        }
    }

    @Test(arguments: ["Pinning.kt", "Pinning.java", "pins.txt"])
    func importPrintsTheAppEntryOfEachForm(_ name: String) throws {
        let result = try Self.importing([OkHttpFixtures.relative(name), "--library", "okhttp", "--name", "sdk"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == Self.entry(name: "sdk"), "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test func theImportedEntryLoadsAndPinsAsTheAppDoes() throws {
        let imported = try Self.importing([OkHttpFixtures.relative("Pinning.kt"), "--library", "okhttp",
                                           "--name", "sdk"])
        #expect(imported.status == 0, "\(imported)")
        try Self.withPolicyFile(imported.stdout) { _, file in
            let trusted = try PinctlProcess.run(["verify", "--config", file, "--chain",
                                                 LibraryCerts.path("leaf-chain.pem"), "--host", "api.example.com",
                                                 "--format", "json"] + Self.at)
            #expect(trusted.status == 0, "\(trusted)")
            #expect(try LiveRun.object(trusted.stdout)["app"] as? String == "sdk")
            let rejected = try PinctlProcess.run(["verify", "--config", file, "--chain",
                                                  LibraryCerts.path("leaf-other-intermediate-chain.pem"), "--host",
                                                  "api.example.com"] + Self.at)
            #expect(rejected.status == 1, "\(rejected)")
        }
    }

    @Test(arguments: [
        ("bad_pattern.kt", 6, "the pattern *.*.example.com: OkHttp refuses it: Unexpected pattern: *.*.example.com"),
        ("bad_pin.java", 8, "OkHttp refuses it: pins must start with 'sha256/' or 'sha1/': md5/"),
        ("bad_pins.txt", 3, "OkHttp refuses it: Invalid pin hash: sha256/a"),
        ("bad_unresolved.kt", 7, "unresolved pin BACKUP_PIN (a name that holds no string constant declared once"),
        ("bad_template.kt", 7, "unresolved pin \"sha256/${BuildConfig.PIN_HASH}\" (a string with the template"),
        ("bad_unterminated_string.java", 6, "unterminated string literal"),
        ("bad_unterminated_comment.kt", 4, "unterminated comment"),
    ])
    func aMalformedFileIsAnInputErrorNamingFileAndLine(_ name: String, _ line: Int, _ saying: String) throws {
        let result = try Self.importing([OkHttpFixtures.relative(name), "--library", "okhttp"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("pinctl: \(OkHttpFixtures.relative(name)):\(line):"), "\(result)")
        #expect(result.stderr.contains(saying), "\(result)")
    }

    @Test func aMalformedConfigFileMakesThePolicyFileAnInputError() throws {
        let apps = "  - name: sdk\n    library: okhttp\n    config: \(OkHttpFixtures.path("bad_unresolved.kt"))\n"
        try Self.withPolicyFile(apps) { _, file in
            let result = try PinctlProcess.run(["verify", "--config", file, "--chain",
                                                LibraryCerts.path("leaf-chain.pem"), "--host", "api.example.com"] + Self.at)
            #expect(result.status == 2, "\(result)")
            let place = OkHttpFixtures.path("bad_unresolved.kt") + ":7:84"
            #expect(result.stderr.contains("\(place): unresolved pin BACKUP_PIN"), "\(result)")
        }
    }

    /// (chain, host) → the verdict and reason every OkHttp app with the fixtures' pins gets, by hand: api.example.com
    /// pools all four pins (leaf, backup, intermediate SHA-1, another CA); www.example.com only `**.example.com`'s.
    static let verdicts: [(chain: String, host: String, verdict: String, reason: String?)] = [
        ("leaf-chain.pem", "api.example.com", "trusted", nil),
        ("leaf-rekeyed-chain.pem", "api.example.com", "trusted", nil),
        ("leaf-other-intermediate-chain.pem", "api.example.com", "rejected", "public-key-not-pinned"),
        ("leaf-chain.pem", "www.example.com", "trusted", nil),
        ("leaf-other-intermediate-chain.pem", "www.example.com", "rejected", "public-key-not-pinned"),
        ("leaf-other-root-chain.pem", "api.example.com", "rejected", "untrusted-chain"),
    ]

    static let configAndInline = "  - name: sdk-config\n    library: okhttp\n    config: Pinning.kt\n"
        + entry(name: "sdk-inline")

    @Test func verifyJudgesAConfigKotlinFileAsTheSamePinsInline() throws {
        try Self.withPolicyFile(Self.configAndInline) { directory, file in
            for row in Self.verdicts {
                let result = try PinctlProcess.run(["verify", "--config", file, "--chain", LibraryCerts.path(row.chain),
                                                    "--host", row.host, "--format", "json"] + Self.at)
                #expect(result.status == (row.verdict == "trusted" ? 0 : 1), "\(row): \(result)")
                let objects = try LiveRun.objects(result.stdout)
                #expect(objects.map { $0["app"] as? String } == ["sdk-config", "sdk-inline"], "\(row)")
                #expect(objects.map { $0["verdict"] as? String } == [row.verdict, row.verdict], "\(row): \(result)")
                #expect(objects.map(LiveRun.reasonCode) == [row.reason, row.reason], "\(row): \(result)")
            }
            // The pin that matched is named where the app wrote it.
            let leaf = try PinctlProcess.run(["verify", "--config", file, "--chain",
                                              LibraryCerts.path("leaf-chain.pem"), "--host", "api.example.com",
                                              "--format", "json"] + Self.at)
            let first = try #require(try LiveRun.objects(leaf.stdout).first)
            let source = (first["matchedPin"] as? [String: Any])?["source"] as? String
            #expect(source == directory.path("Pinning.kt") + ":23")
        }
    }

    @Test func checkJudgesAConfigKotlinFileAsTheSamePinsInline() throws {
        let server = try TLSTestServer(chainPEM: LibraryCerts.path("leaf-chain.pem"),
                                       keyPath: LibraryCerts.path("leaf.key"))
        defer { server.stop() }
        try Self.withPolicyFile(Self.configAndInline) { _, file in
            let arguments = ["check", "--config", file, "127.0.0.1:\(server.port)", "--servername", "api.example.com",
                             "--format", "json"] + Self.at
            let today = try PinctlProcess.run(arguments)
            #expect(today.status == 0, "\(today)")
            #expect(try LiveRun.objects(today.stdout).map { $0["verdict"] as? String } == ["trusted", "trusted"])

            try server.serve(chainPEM: LibraryCerts.path("leaf-other-intermediate-chain.pem"),
                             keyPath: LibraryCerts.path("leaf-other-intermediate.key"))
            let moved = try PinctlProcess.run(arguments)
            #expect(moved.status == 1, "\(moved)")
            let objects = try LiveRun.objects(moved.stdout)
            #expect(objects.map { $0["verdict"] as? String } == ["rejected", "rejected"], "\(moved)")
            #expect(objects.map(LiveRun.reasonCode) == ["public-key-not-pinned", "public-key-not-pinned"])
        }
    }
}
