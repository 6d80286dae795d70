import Foundation
import Testing
import TestSupport

/// End-to-end: path building that backtracks (DESIGN §12) on the certs/paths/ chains, where the path OpenSSL 3.0
/// builds first fails and another through the same certificates verifies (scripts/make-path-certs.sh checks both
/// with `openssl verify`), offline with `pinctl verify` and live against a loopback server.
@Suite struct PathBuildingTests {
    static let rootA = ["--ca-file", "paths/root-a.pem"]
    static let rootAAndExpiredB = rootA + ["--ca-file", "paths/root-b-expired.pem"]
    static let rootB = "CN=Paths Root B,O=pinctl Paths"

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let chain: String
        let anchors: [String]
        /// What `openssl verify` says of the path it builds (scripts/make-path-certs.sh).
        let openSSLFailure: String
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "a dead end first", chain: "paths/cross-signed-chain.pem", anchors: rootA,
             openSSLFailure: "unable to get local issuer certificate"),
        Case(name: "an expired root first", chain: "paths/cross-signed-chain.pem", anchors: rootAAndExpiredB,
             openSSLFailure: "certificate has expired"),
        Case(name: "a SHA-1 cross-sign first", chain: "paths/sha1-cross-signed-chain.pem",
             anchors: rootA + ["--ca-file", "paths/root-b.pem"], openSSLFailure: "signed with ecdsa-with-SHA1"),
        Case(name: "a borrowed key identifier first", chain: "paths/borrowed-key-id-chain.pem", anchors: rootA,
             openSSLFailure: "certificate signature failure"),
    ]

    func verify(_ chain: String, _ anchors: [String], _ more: [String] = []) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--chain", chain, "--host", "paths.test", "--at", TestTime.nowText]
            + anchors + more)
    }

    func json(_ result: PinctlProcess.Result) throws -> [String: Any] {
        let line = try #require(result.stdout.split(separator: "\n").first)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("The other path verifies and the verdict names it", arguments: cases)
    func anotherPathVerifiesAndTheVerdictNamesIt(_ test: Case) throws {
        let result = try verify(test.chain, test.anchors)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("TRUSTED"), "\(result)")
        // The server sent leaf, the refused issuer, the good issuer; Root A came from the store.
        #expect(result.stdout.contains("#3 CN=Paths Root A,O=pinctl Paths  [from the trust store]"), "\(result)")
        #expect(result.stdout.contains("path: #0 → #2 → #3, after 1 path refused (--verbose lists them)"),
                "\(result)")
    }

    @Test("--verbose lists the path refused and why", arguments: cases)
    func verboseListsTheRefusedPathAndWhy(_ test: Case) throws {
        let result = try verify(test.chain, test.anchors, ["--verbose"])
        #expect(result.status == 0, "\(result)")
        let refused = try #require(result.stdout.split(separator: "\n").first { $0.contains("refused path") })
        #expect(refused.hasPrefix("  refused path #0 → #1"), "\(result)")
        #expect(refused.contains(test.openSSLFailure), "\(result)")
    }

    @Test func theExpiredAnchorOfTheRefusedPathIsNamedBySubject() throws {
        let result = try verify("paths/cross-signed-chain.pem", Self.rootAAndExpiredB, ["--verbose"])
        #expect(result.stdout.contains("  refused path #0 → #1 → \(Self.rootB): at depth 2 (\(Self.rootB)): "
            + "certificate has expired"), "\(result)")
    }

    @Test func jsonGivesThePathTakenAndTheRefusedOnes() throws {
        let result = try verify("paths/cross-signed-chain.pem", Self.rootA, ["--format", "json"])
        #expect(result.status == 0, "\(result)")
        let object = try json(result)
        #expect(object["verdict"] as? String == "trusted")
        #expect(object["path"] as? [Int] == [0, 2, 3], "\(result)")
        let refused = try #require(object["refusedPaths"] as? [[String: Any]])
        #expect(refused.count == 1)
        #expect(refused.first?["path"] as? String == "#0 → #1", "\(result)")
        #expect(refused.first?["depth"] as? Int == 1, "\(result)")
    }

    @Test func aChainThatVerifiesOnTheFirstPathSaysNothingOfPaths() throws {
        let result = try verify("paths/leaf.pem", Self.rootA, ["--chain", "paths/intermediate-by-a.pem", "--verbose"])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("path:") && !result.stdout.contains("refused path"), "\(result)")
        let object = try json(try verify("paths/leaf.pem", Self.rootA,
                                         ["--chain", "paths/intermediate-by-a.pem", "--format", "json"]))
        #expect(object["path"] == nil && object["refusedPaths"] == nil)
    }

    @Test func pinsAreComparedWithThePathTaken() throws {
        // Root A's key is only on the path that verifies; Root B's only on the refused one.
        let pinnedA = try verify("paths/cross-signed-chain.pem", Self.rootAAndExpiredB,
                                 ["--mode", "publickey", "--pins", "paths/root-a.pem"])
        #expect(pinnedA.status == 0, "\(pinnedA)")
        #expect(pinnedA.stdout.contains("matched certificate #3"), "\(pinnedA)")

        let pinnedB = try verify("paths/cross-signed-chain.pem", Self.rootAAndExpiredB,
                                 ["--mode", "publickey", "--pins", "paths/root-b.pem", "--format", "json"])
        #expect(pinnedB.status == 1, "\(pinnedB)")
        let reason = try #require(try json(pinnedB)["reason"] as? [String: Any])
        #expect(reason["code"] as? String == "public-key-not-pinned", "\(pinnedB)")
    }

    @Test func aPinnedRootAnchorsTheOtherPathInCertificateMode() throws {
        let result = try verify("paths/cross-signed-chain.pem", Self.rootA,
                                ["--mode", "certificate", "--pins", "paths/root-a.pem"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("matched certificate #3"), "\(result)")
    }

    @Test func everyPathFailingKeepsOpenSSLsReason() throws {
        // Root B (expired) is the only anchor: the one path there is refused, and nothing else reaches an anchor.
        let result = try verify("paths/cross-signed-chain.pem", ["--ca-file", "paths/root-b-expired.pem"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("expired: certificate #3 (\(Self.rootB)) expired on 2021-01-01"), "\(result)")
        #expect(!result.stdout.contains("path:"), "\(result)")
    }

    /// bettertls's EKU cases: the only other path runs through a CA for e-mail only. Evaluation checks the leaf's
    /// usage alone (DESIGN §2), so backtracking trusted it; a path OpenSSL did not build must now allow serverAuth
    /// on every CA, and is refused (x509-limbo tc44, tc71, tc77 were false "trusted").
    @Test func anotherPathThroughAnEmailOnlyCAIsRefused() throws {
        let result = try verify("paths/email-cross-signed-chain.pem", Self.rootA, ["--verbose"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("REJECTED"), "\(result)")
        #expect(result.stdout.contains("extended key usage does not allow serverAuth"), "\(result)")
    }

    @Test func everyAppOfAPolicyFileNamesThePathItTook() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: """
                version: 1
                anchors: { ca-files: [\(Certs.path("paths/root-a.pem"))] }
                apps:
                  - name: ios
                    library: afnetworking
                    hosts: [paths.test]
                    policy: { mode: publickey, pins: [\(Certs.path("paths/root-a.pem"))] }
                  - name: android
                    library: afnetworking
                    hosts: [paths.test]
                    policy: { mode: none }
                """)
            let result = try PinctlProcess.run(["verify", "--config", file, "--chain", "paths/cross-signed-chain.pem",
                                                "--host", "paths.test", "--at", TestTime.nowText, "--verbose"])
            #expect(result.status == 0, "\(result)")
            for app in ["ios", "android"] {
                #expect(result.stdout.contains("  \(app): path: #0 → #2 → #3, after 1 path refused"), "\(result)")
                #expect(result.stdout.contains("  \(app): refused path #0 → #1: at depth 1"), "\(result)")
            }
        }
    }

    @Test func liveServerSendingTheDeadEndFirstIsTrustedThroughTheOtherPath() throws {
        let server = try TLSTestServer(
            chainPEM: [Certs.path("paths/cross-signed-chain.pem")], keyPath: Certs.path("paths/leaf.key"))
        defer { server.stop() }
        let result = try PinctlProcess.run([
            "check", "127.0.0.1:\(server.port)", "--servername", "paths.test", "--timeout", "5",
            "--at", TestTime.nowText, "--mode", "publickey", "--pins", "paths/root-a.pem",
        ] + Self.rootA)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("matched certificate #3"), "\(result)")
        #expect(result.stdout.contains("path: #0 → #2 → #3, after 1 path refused"), "\(result)")
    }
}

/// A root in `TRUSTED CERTIFICATE` form (`openssl x509 -addtrust`) anchors a TLS server chain only when it is trusted
/// for serverAuth (or any use), as OpenSSL's SSL-server trust reads it.
@Suite struct TrustedCertificateAnchorTests {
    func verify(anchor: String) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--chain", "paths/leaf.pem", "--chain", "paths/intermediate-by-a.pem",
                               "--host", "paths.test", "--at", TestTime.nowText, "--ca-file", anchor])
    }

    @Test func aRootTrustedForServerAuthAnchorsATLSServerChain() throws {
        let result = try verify(anchor: "paths/root-a-trusted-serverauth.pem")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("TRUSTED"), "\(result)")
    }

    @Test("A root trusted for something else, or rejecting serverAuth, does not anchor",
          arguments: ["paths/root-a-trusted-email.pem", "paths/root-a-rejected-serverauth.pem"])
    func aRootNotTrustedForServerAuthDoesNotAnchor(_ anchor: String) throws {
        let result = try verify(anchor: anchor)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("certificate rejected"), "\(result)")
    }
}
