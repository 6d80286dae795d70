import Foundation
import Testing
import TestSupport

/// End-to-end: the built `pinctl verify` and `check` with `--library okhttp`, run in certs/libraries/ with root-ca.pem
/// standing for the system store; exit codes of DESIGN §3 (0 trusted, 1 rejected, 2 input).
@Suite struct OkHttpCommandTests {
    static let anchors = ["--ca-file", "root-ca.pem", "--at", TestTime.nowText]
    let leaf = LibraryCerts.pin(of: "leaf.pem")
    /// A key in no chain served here.
    let rekeyed = LibraryCerts.pin(of: "leaf-rekeyed.pem")

    func verify(_ arguments: [String], host: String = "api.example.com") throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--library", "okhttp", "--chain", "leaf-chain.pem", "--host", host]
            + arguments + Self.anchors, in: LibraryCerts.directory)
    }

    @Test func aPinnedLeafIsTrustedAndAPinElsewhereIsRejectedWithOkHttpsMessage() throws {
        let trusted = try verify(["--pin", leaf])
        #expect(trusted.status == 0, "\(trusted)")
        #expect(trusted.stdout.contains("TRUSTED  okhttp"), "\(trusted)")
        #expect(trusted.stdout.contains("pin --pin matched certificate #0"), "\(trusted)")

        let rejected = try verify(["--pin", rekeyed])
        #expect(rejected.status == 1, "\(rejected)")
        let lines = rejected.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex(of: "Certificate pinning failure!"), "\(rejected)")
        #expect(Array(lines[start...]) == [
            "Certificate pinning failure!",
            "Peer certificate chain:",
            "\(leaf): CN=api.example.com",
            "\(LibraryCerts.pin(of: "intermediate-ca.pem")): CN=Libraries Intermediate CA,O=pinctl Libraries",
            "\(LibraryCerts.pin(of: "root-ca.pem")): CN=Libraries Root CA,O=pinctl Libraries",
            "Pinned certificates for api.example.com:",
            rekeyed,
        ])
    }

    @Test func aDoubleStarPatternCoversTheApexAndTheStoreRootCanBePinned() throws {
        let root = try verify(["--pattern", "**.example.com", "--pin", LibraryCerts.pin(of: "root-ca.pem"),
                               "--format", "json"], host: "example.com")
        #expect(root.status == 0, "\(root)")
        let object = try LiveRun.object(root.stdout)
        #expect((object["trust"] as? [String: Any])?["basis"] as? String == "pin-matched")
        #expect((object["matchedPin"] as? [String: Any])?["certificate"] as? Int == 2)

        let elsewhere = try verify(["--pattern", "**.example.com", "--pin", rekeyed], host: "example.com")
        #expect(elsewhere.status == 1, "the apex is pinned by **.example.com: \(elsewhere)")
        let single = try verify(["--pattern", "*.example.com", "--pin", rekeyed], host: "example.com")
        #expect(single.status == 0, "*.example.com does not cover the apex: \(single)")
    }

    @Test func aSHA1PinMatchesTheKeyItHashes() throws {
        let result = try verify(["--pin", LibraryCerts.sha1Pin(of: "intermediate-ca.pem"), "--format", "json"])
        #expect(result.status == 0, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect((object["matchedPin"] as? [String: Any])?["certificate"] as? Int == 1)
        #expect(try verify(["--pin", LibraryCerts.sha1Pin(of: "leaf-rekeyed.pem")]).status == 1)
    }

    @Test func aHostNoPatternMatchesIsTrustedWithoutPinning() throws {
        let result = try verify(["--pattern", "api.example.org", "--pin", rekeyed, "--format", "json"])
        #expect(result.status == 0, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect((object["trust"] as? [String: Any])?["basis"] as? String == "not-pinned")
    }

    @Test func aTrailingDotHostPassesTheHostCheckButEscapesThePinsWithAWarning() throws {
        let result = try verify(["--pattern", "api.example.com", "--pin", rekeyed, "--format", "json"],
                                host: "api.example.com.")
        #expect(result.status == 0, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect((object["trust"] as? [String: Any])?["basis"] as? String == "not-pinned")
        #expect((object["warnings"] as? [String])?.contains { $0.contains("okhttp#9724") } == true, "\(result)")
    }

    @Test func theChainAndTheHostAreCheckedBeforeThePins() throws {
        let wrongHost = try verify(["--pattern", "**.example.com", "--pin", leaf], host: "mail.example.com")
        #expect(wrongHost.status == 1, "\(wrongHost)")
        #expect(wrongHost.stdout.contains("host name mismatch"), "\(wrongHost)")
        let alone = try PinctlProcess.run(["verify", "--library", "okhttp", "--chain", "leaf.pem", "--host",
                                           "api.example.com", "--pin", leaf] + Self.anchors, in: LibraryCerts.directory)
        #expect(alone.status == 1, "\(alone)")
        #expect(alone.stdout.contains("untrusted chain"), "\(alone)")
    }

    @Test func aPinOfTheWrongLengthIsAcceptedWithAWarning() throws {
        let result = try verify(["--pin", "sha256/AAAA", "--pin", leaf])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("has 3 bytes where sha256 has 32"), "\(result)")
    }

    static let refusals: [(flag: String, value: String, message: String)] = [
        ("--pattern", "*.*.example.com",
         "--pattern *.*.example.com: OkHttp refuses it: Unexpected pattern: *.*.example.com"),
        ("--pattern", "api.example.com:443",
         "--pattern api.example.com:443: OkHttp refuses it: Invalid pattern: api.example.com:443"),
        // A pin is quoted at most 24 characters long, up to a `=` (UntrustedText).
        ("--pin", "md5/DmxUShsZuNiqPQsX2Oi9uv2sCnw=",
         "OkHttp refuses it: pins must start with 'sha256/' or 'sha1/': md5/DmxUShsZuNiqPQsX2Oi9…"),
        ("--pin", "sha256/a", "--pin sha256/a: OkHttp refuses it: Invalid pin hash: sha256/a"),
    ]

    @Test(arguments: refusals)
    func whatOkHttpRefusesIsAnInputErrorInItsWords(_ refusal: (flag: String, value: String, message: String)) throws {
        let pins = refusal.flag == "--pin" ? [] : ["--pin", leaf]
        let result = try verify(pins + [refusal.flag, refusal.value])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(refusal.message), "\(result)")
    }

    @Test func anOptionOfAnotherLibraryIsAUsageError() throws {
        let result = try verify(["--pin", leaf, "--mode", "publickey"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--mode is an option of --library afnetworking, not of okhttp"), "\(result)")
    }

    @Test func checkJudgesALiveServerAsOkHttpWould() throws {
        let server = try TLSTestServer(chainPEM: LibraryCerts.path("leaf-chain.pem"),
                                       keyPath: LibraryCerts.path("leaf.key"))
        defer { server.stop() }
        let target = ["check", "127.0.0.1:\(server.port)", "--servername", "api.example.com", "--library", "okhttp"]

        let trusted = try PinctlProcess.run(target + ["--pattern", "*.example.com", "--pin", leaf, "--format", "json"]
            + Self.anchors, in: LibraryCerts.directory)
        #expect(trusted.status == 0, "\(trusted)")
        let object = try LiveRun.object(trusted.stdout)
        #expect(object["library"] as? String == "okhttp")
        #expect(object["domain"] as? String == "api.example.com")
        #expect((object["matchedPin"] as? [String: Any])?["certificate"] as? Int == 0)
        #expect((object["chain"] as? [[String: Any]])?.map { $0["presented"] as? Bool } == [true, true, false])
        #expect(server.lastServerName == "api.example.com")

        let rejected = try PinctlProcess.run(target + ["--pin", rekeyed] + Self.anchors, in: LibraryCerts.directory)
        #expect(rejected.status == 1, "\(rejected)")
        #expect(rejected.stdout.contains("Certificate pinning failure!"), "\(rejected)")
        #expect(rejected.stdout.contains("Pinned certificates for api.example.com:"), "\(rejected)")
    }
}
