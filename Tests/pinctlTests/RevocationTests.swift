import Foundation
import Testing
import TestSupport

/// `check --revocation` against the revocation PKI of scripts/make-revocation-pki.sh: staples served by
/// `openssl s_server -status_file`, an `openssl ocsp` responder and a CRL over HTTP, all on loopback. What each
/// certificate's status is comes from the openssl CLI (its responder, its CRL), never from pinctl. The responders
/// are on loopback, so every fetching run passes --revocation-allow-private.
@Suite(.serialized) struct RevocationTests {
    /// A server presenting NAME.pem with ca.pem, stapling `staple` (a file of the fixture) when given.
    static func server(_ name: String, staple: String? = nil, in fixture: RevocationFixture) throws -> OpenSSLServer {
        try OpenSSLServer(["-cert", "\(name).pem", "-key", "\(name).key", "-cert_chain", "ca.pem"]
                          + (staple.map { ["-status_file", $0] } ?? []), in: fixture.directory)
    }

    static func check(_ server: OpenSSLServer, _ fixture: RevocationFixture, _ extra: [String]) throws
        -> PinctlProcess.Result
    {
        try PinctlProcess.run(["check", "127.0.0.1:\(server.port)", "--ca-file", fixture.directory + "/root.pem",
                               "--at", RevocationFixture.at, "--timeout", "5", "--format", "json",
                               "--revocation-allow-private"] + extra)
    }

    static func warnings(_ object: [String: Any]) -> [String] { object["warnings"] as? [String] ?? [] }

    /// What `openssl ocsp` says of NAME.pem when it asks the fixture's responder itself: good, revoked or unknown.
    static func responderSays(_ name: String, _ fixture: RevocationFixture) throws -> String {
        let result = try PinctlProcess.runShell(
            "openssl ocsp -issuer ca.pem -cert \(name).pem -url \(fixture.ocspURL) -CAfile root.pem -no_nonce "
                + "2>/dev/null", in: fixture.directory)
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("\(name).pem: ") })
        return String(line.dropFirst("\(name).pem: ".count))
    }

    @Test func aStapledGoodResponseKeepsTheChainTrusted() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let server = try Self.server("good", staple: "staple-good.der", in: fixture)
            defer { server.stop() }
            let result = try Self.check(server, fixture, ["--revocation", "stapled"])
            #expect(result.status == 0, "\(result)")
            let object = try LiveRun.object(result.stdout)
            #expect(object["verdict"] as? String == "trusted")
            #expect(Self.warnings(object).allSatisfy { !$0.contains("OCSP") }, "\(result)")
        }
    }

    @Test func aStapledRevokedResponseRejectsTheChainAsRevoked() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let server = try Self.server("revoked", staple: "staple-revoked.der", in: fixture)
            defer { server.stop() }
            let result = try Self.check(server, fixture, ["--revocation", "stapled"])
            #expect(result.status == 1, "\(result)")
            let object = try LiveRun.object(result.stdout)
            #expect(object["verdict"] as? String == "rejected")
            #expect(LiveRun.reasonCode(object) == "revoked", "\(result)")
            let message = (object["reason"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("CN=revoked.pinning.test") && message.contains("keyCompromise")
                    && message.contains("the stapled OCSP response"), "\(message)")
            #expect((object["reason"] as? [String: Any])?["certificate"] as? Int == 0)

            let text = try PinctlProcess.run(["check", "127.0.0.1:\(server.port)", "--ca-file",
                                              fixture.directory + "/root.pem", "--at", RevocationFixture.at,
                                              "--revocation", "stapled"])
            #expect(text.status == 1, "\(text)")
            #expect(text.stdout.contains("revoked: certificate #0 (CN=revoked.pinning.test) was revoked"), "\(text)")

            let sarif = try PinctlProcess.run(["check", "127.0.0.1:\(server.port)", "--ca-file",
                                               fixture.directory + "/root.pem", "--at", RevocationFixture.at,
                                               "--revocation", "stapled", "--format", "sarif"])
            let run = ((try LiveRun.object(sarif.stdout)["runs"] as? [[String: Any]]) ?? []).first
            let rules = ((run?["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]]
            let rule = rules?.first { $0["id"] as? String == "revoked" }
            #expect((rule?["shortDescription"] as? [String: Any])?["text"] as? String
                    == "A certificate of the chain was revoked.", "\(sarif)")
        }
    }

    /// Staples that cannot be relied on: signed by a key the CA never certified, past their nextUpdate, about
    /// another certificate, or with a corrupted signature.
    @Test(arguments: ["staple-forged.der", "staple-stale.der", "staple-other.der", "staple-tampered.der"])
    func aStapleThatCannotBeReliedOnIsOCSPInvalid(staple: String) throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            var good = try #require(FileManager.default.contents(atPath: fixture.directory + "/staple-good.der"))
            // The last byte is inside the signature's s value: the response still parses, its signature fails.
            good[good.count - 1] ^= 0x01
            try good.write(to: URL(fileURLWithPath: fixture.directory + "/staple-tampered.der"))
            let server = try Self.server("good", staple: staple, in: fixture)
            defer { server.stop() }
            let result = try Self.check(server, fixture, ["--revocation", "stapled"])
            #expect(result.status == 1, "\(result)")
            let object = try LiveRun.object(result.stdout)
            #expect(LiveRun.reasonCode(object) == "ocsp-invalid", "\(result)")
            let message = (object["reason"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.hasPrefix("OCSP invalid: the stapled OCSP response cannot be relied on: "), "\(message)")
        }
    }

    @Test func aMissingStapleIsAWarningNotARejection() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let server = try Self.server("good", in: fixture)
            defer { server.stop() }
            let result = try Self.check(server, fixture, ["--revocation", "stapled"])
            #expect(result.status == 0, "\(result)")
            let object = try LiveRun.object(result.stdout)
            #expect(Self.warnings(object).contains { $0.hasPrefix("no stapled OCSP response") }, "\(result)")
        }
    }

    @Test func withoutRevocationARevokedLeafIsNotLookedAt() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let server = try Self.server("revoked", staple: "staple-revoked.der", in: fixture)
            defer { server.stop() }
            let result = try Self.check(server, fixture, [])
            #expect(result.status == 0, "\(result)")
        }
    }

    /// The responder's own answer, as the openssl CLI reads it, decides what pinctl must say.
    @Test func theOCSPResponderIsAskedAboutGoodRevokedAndUnknownLeaves() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            for name in ["good", "revoked", "unknown"] {
                let says = try Self.responderSays(name, fixture)
                let server = try Self.server(name, in: fixture)
                defer { server.stop() }
                let result = try Self.check(server, fixture, ["--revocation", "ocsp"])
                let object = try LiveRun.object(result.stdout)
                switch says {
                case "good":
                    #expect(result.status == 0, "\(name): \(result)")
                    #expect(object["verdict"] as? String == "trusted")
                case "revoked":
                    #expect(result.status == 1, "\(name): \(result)")
                    #expect(LiveRun.reasonCode(object) == "revoked", "\(result)")
                    let message = (object["reason"] as? [String: Any])?["message"] as? String ?? ""
                    #expect(message.contains("OCSP responder \(fixture.ocspURL)"), "\(message)")
                case "unknown":
                    // Not a positive answer, nor a revocation: trusted, with a warning saying so.
                    #expect(result.status == 0, "\(name): \(result)")
                    #expect(Self.warnings(object).contains {
                        $0.hasPrefix("revocation status unknown: OCSP responder \(fixture.ocspURL) does not know")
                    }, "\(result)")
                default:
                    Issue.record("openssl ocsp says \(says) about \(name)")
                }
            }
            #expect(try Self.responderSays("good", fixture) == "good")
            #expect(try Self.responderSays("revoked", fixture).hasPrefix("revoked"))
            #expect(try Self.responderSays("unknown", fixture) == "unknown")
        }
    }

    /// The CRL served over HTTP lists what `openssl crl` lists: the revoked leaf's serial, and not the good one's.
    @Test func theCRLIsFetchedFromTheDistributionPoint() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let listing = try PinctlProcess.runShell("openssl crl -in ca.crl -inform DER -noout -text",
                                                     in: fixture.directory).stdout
            for name in ["good", "revoked"] {
                let serial = try PinctlProcess.runShell("openssl x509 -in \(name).pem -noout -serial",
                                                        in: fixture.directory).stdout
                    .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "serial=", with: "")
                let listed = listing.contains("Serial Number: \(serial)")
                #expect(listed == (name == "revoked"), "\(name) \(serial): \(listing)")
                let server = try Self.server(name, in: fixture)
                defer { server.stop() }
                let result = try Self.check(server, fixture, ["--revocation", "crl"])
                let object = try LiveRun.object(result.stdout)
                #expect(result.status == (listed ? 1 : 0), "\(name): \(result)")
                if listed {
                    #expect(LiveRun.reasonCode(object) == "revoked", "\(result)")
                    let message = (object["reason"] as? [String: Any])?["message"] as? String ?? ""
                    #expect(message.contains("CRL \(fixture.crlURL)") && message.contains("keyCompromise"), "\(message)")
                }
            }
        }
    }

    @Test func aSilentResponderIsAConnectionErrorWithinTheTimeout() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path, silentResponder: true)
            defer { fixture.stop() }
            let server = try Self.server("good", in: fixture)
            defer { server.stop() }
            let bound = try LiveRun.failureBound(timeout: 2)
            let (result, seconds) = try LiveRun.timed([
                "check", "127.0.0.1:\(server.port)", "--ca-file", fixture.directory + "/root.pem",
                "--at", RevocationFixture.at, "--timeout", "2", "--revocation", "ocsp", "--format", "json",
                "--revocation-allow-private"])
            #expect(result.status == 3, "\(result)")
            #expect(seconds < bound, "took \(seconds) s")
            let object = try LiveRun.object(result.stdout)
            #expect(object["verdict"] as? String == "error")
            #expect(LiveRun.reasonCode(object) == "timeout", "\(result)")
            let message = (object["reason"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("no answer from OCSP responder \(fixture.ocspURL) within 2 s"), "\(message)")
        }
    }

    /// Alamofire's RevocationTrustEvaluator in a policy file asks for the check itself, without --revocation:
    /// `.any` asks the OCSP responder; `.networkAccessDisabled` with `.requirePositiveResponse` has only the staple,
    /// and a server that staples nothing fails it.
    @Test func alamofiresRevocationEvaluatorInAPolicyFileChecksRevocation() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let file = try directory.write("pinctl.yaml", text: """
                version: 1
                apps:
                  - name: any
                    library: alamofire
                    policy:
                      evaluators:
                        127.0.0.1: {kind: revocation}
                  - name: offline
                    library: alamofire
                    policy:
                      evaluators:
                        127.0.0.1: {kind: revocation, options: [networkAccessDisabled, requirePositiveResponse]}

                """)
            for name in ["good", "revoked"] {
                let server = try Self.server(name, in: fixture)
                defer { server.stop() }
                let result = try PinctlProcess.run([
                    "check", "127.0.0.1:\(server.port)", "--config", file, "--ca-file", fixture.directory + "/root.pem",
                    "--at", RevocationFixture.at, "--timeout", "5", "--format", "json", "--revocation-allow-private"])
                #expect(result.status == 1, "\(name): \(result)")
                let objects = try LiveRun.objects(result.stdout)
                try #require(objects.count == 2, "\(result)")
                let byApp = Dictionary(uniqueKeysWithValues: objects.map { ($0["app"] as? String ?? "", $0) })
                let any = try #require(byApp["any"])
                let offline = try #require(byApp["offline"])
                #expect(any["library"] as? String == "alamofire", "\(any)")
                if name == "good" {
                    #expect(any["verdict"] as? String == "trusted", "\(result)")
                } else {
                    #expect(LiveRun.reasonCode(any) == "revoked", "\(result)")
                }
                #expect(LiveRun.reasonCode(offline) == "ocsp-invalid", "\(result)")
                let message = (offline["reason"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("no stapled OCSP response") && message.contains("a positive answer is required"),
                        "\(message)")
            }

            let stapling = try Self.server("good", staple: "staple-good.der", in: fixture)
            defer { stapling.stop() }
            let stapled = try PinctlProcess.run([
                "check", "127.0.0.1:\(stapling.port)", "--config", file, "--ca-file", fixture.directory + "/root.pem",
                "--at", RevocationFixture.at, "--timeout", "5", "--format", "json"])
            #expect(stapled.status == 0, "\(stapled)")
        }
    }

    /// The same evaluator from the command line: `--evaluator revocation` asks the responder (options `.any`).
    @Test func theRevocationEvaluatorOnTheCommandLineAsksTheResponder() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let server = try Self.server("revoked", in: fixture)
            defer { server.stop() }
            let result = try Self.check(server, fixture, ["--library", "alamofire", "--evaluator", "revocation"])
            #expect(result.status == 1, "\(result)")
            let object = try LiveRun.object(result.stdout)
            #expect((object["policy"] as? [String: Any])?["evaluator"] as? String == "revocation", "\(result)")
            #expect((object["policy"] as? [String: Any])?["any"] as? Bool == true, "\(result)")
            #expect(LiveRun.reasonCode(object) == "revoked", "\(result)")
        }
    }

    /// `http_proxy` carries the OCSP request (absolute form), while the TLS target, with no https_proxy, is reached
    /// directly.
    @Test func theOCSPRequestGoesThroughTheHTTPProxy() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let proxy = try TestProxy()
            defer { proxy.stop() }
            let server = try Self.server("revoked", in: fixture)
            defer { server.stop() }
            let result = try PinctlProcess.run(
                ["check", "127.0.0.1:\(server.port)", "--ca-file", fixture.directory + "/root.pem", "--at",
                 RevocationFixture.at, "--timeout", "5", "--format", "json", "--revocation", "ocsp",
                 "--revocation-allow-private"],
                environment: ["http_proxy": proxy.url(), "https_proxy": "", "all_proxy": "", "no_proxy": ""])
            #expect(result.status == 1, "\(result)")
            #expect(LiveRun.reasonCode(try LiveRun.object(result.stdout)) == "revoked", "\(result)")
            #expect(proxy.requests.map(\.line) == ["POST \(fixture.ocspURL) HTTP/1.0"], "\(proxy.requests)")
        }
    }

    /// A distribution point that answers with no CRL is evidence that cannot be relied on, not a network failure.
    @Test func aDistributionPointWithoutACRLIsCRLInvalid() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            try FileManager.default.removeItem(atPath: fixture.directory + "/ca.crl")
            let server = try Self.server("good", in: fixture)
            defer { server.stop() }
            let result = try Self.check(server, fixture, ["--revocation", "crl"])
            #expect(result.status == 1, "\(result)")
            let object = try LiveRun.object(result.stdout)
            #expect(LiveRun.reasonCode(object) == "crl-invalid", "\(result)")
            let message = (object["reason"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.hasPrefix("CRL invalid: CRL \(fixture.crlURL) cannot be relied on"), "\(message)")
        }
    }

    /// `verify --crl-file` agrees with `openssl verify -crl_check` on the same files, DER or PEM.
    @Test(arguments: ["ca.crl", "ca.crl.pem"])
    func verifyJudgesTheLeafAgainstACRLFileAsOpenSSLVerifyDoes(crl: String) throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            for name in ["good", "revoked"] {
                let oracle = try PinctlProcess.runShell(
                    "openssl verify -crl_check -CRLfile ca.crl.pem -CAfile root.pem -untrusted ca.pem \(name).pem 2>&1",
                    in: fixture.directory).stdout
                let revoked = oracle.contains("certificate revoked")
                #expect(revoked || oracle.contains("\(name).pem: OK"), "\(oracle)")
                let result = try PinctlProcess.run(
                    ["verify", "--chain", "\(name)-chain.pem", "--ca-file", "root.pem", "--at", RevocationFixture.at,
                     "--crl-file", crl, "--format", "json"], in: fixture.directory)
                #expect(result.status == (revoked ? 1 : 0), "\(name): \(result)")
                if revoked {
                    let object = try LiveRun.object(result.stdout)
                    #expect(LiveRun.reasonCode(object) == "revoked", "\(result)")
                    let message = (object["reason"] as? [String: Any])?["message"] as? String ?? ""
                    #expect(message.contains("CRL file \(crl)"), "\(message)")
                }
            }
            #expect(try PinctlProcess.run(["verify", "--chain", "good-chain.pem", "--crl-file", "missing.crl"],
                                          in: fixture.directory).status == 2)
        }
    }

    /// With ocsp, a stapled answer is the responder's own: the (here silent) responder is not asked again.
    @Test func withOCSPAStapleSparesAskingTheResponder() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path, silentResponder: true)
            defer { fixture.stop() }
            for (name, status, code) in [("good", Int32(0), nil), ("revoked", Int32(1), "revoked")] {
                let server = try Self.server(name, staple: "staple-\(name).der", in: fixture)
                defer { server.stop() }
                let result = try Self.check(server, fixture, ["--revocation", "ocsp", "--timeout", "2"])
                #expect(result.status == status, "\(name): \(result)")
                #expect(LiveRun.reasonCode(try LiveRun.object(result.stdout)) == code, "\(result)")
            }
        }
    }

    /// A chain the policy rejects is not looked up: the (silent) responder is never asked, and the rejection stands.
    @Test func anUntrustedChainIsRejectedWithoutAskingTheResponder() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path, silentResponder: true)
            defer { fixture.stop() }
            let server = try Self.server("good", in: fixture)
            defer { server.stop() }
            // rogue.pem as the only anchor: the chain leads to root.pem, which is then not trusted.
            let result = try PinctlProcess.run(
                ["check", "127.0.0.1:\(server.port)", "--ca-file", fixture.directory + "/rogue.pem", "--at",
                 RevocationFixture.at, "--timeout", "2", "--revocation", "ocsp", "--format", "json",
                 "--revocation-allow-private"])
            #expect(result.status == 1, "\(result)")
            #expect(LiveRun.reasonCode(try LiveRun.object(result.stdout)) == "untrusted-chain", "\(result)")
        }
    }
}
