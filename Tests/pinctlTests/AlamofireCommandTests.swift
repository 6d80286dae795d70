import Foundation
import Testing
import TestSupport

/// End-to-end: the built `pinctl verify --library alamofire`, each of its flags changing a verdict, run in `certs/`.
@Suite struct AlamofireCommandTests {
    static let base = ["verify", "--library", "alamofire", "--ca-file", "libraries/root-ca.pem",
                       "--at", TestTime.nowText]
    static let leafChain = ["--chain", "libraries/leaf-chain.pem", "--host", "api.example.com"]
    static let selfSigned = ["--chain", "libraries/self-signed.pem", "--host", "api.example.com"]

    func verify(_ arguments: [String]) throws -> PinctlProcess.Result { try PinctlProcess.run(Self.base + arguments) }

    func json(_ arguments: [String], status: Int32, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String: Any]
    {
        let result = try verify(arguments + ["--format", "json"])
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        return try LiveRun.object(result.stdout, sourceLocation: sourceLocation)
    }

    static func basis(_ object: [String: Any]) -> String? { (object["trust"] as? [String: Any])?["basis"] as? String }

    @Test func pinnedIntermediateIsMatchedInTheChainBuiltToTheStore() throws {
        let result = try verify(["--evaluator", "pinned-certificates", "--pins", "libraries/intermediate-ca.pem"]
            + Self.leafChain)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("TRUSTED  alamofire, evaluator pinned-certificates"), "\(result)")
        #expect(result.stdout.contains("pin libraries/intermediate-ca.pem matched certificate #1"), "\(result)")
        #expect(result.stdout.contains("#2 CN=Libraries Root CA,O=pinctl Libraries  [from the trust store]"))
        let object = try json(["--pins", "libraries/intermediate-ca.pem"] + Self.leafChain, status: 0)
        let policy = try #require(object["policy"] as? [String: Any])
        #expect(policy["evaluator"] as? String == "pinned-certificates")
        #expect(policy["acceptSelfSignedCertificates"] as? Bool == false)
        #expect(policy["performDefaultValidation"] as? Bool == true)
        #expect(policy["validateHost"] as? Bool == true)
        #expect((object["chain"] as? [Any])?.count == 3)
    }

    /// The pins become the only anchors: the self-signed pin is trusted, and the store's root leaves the chain.
    @Test func acceptSelfSignedCertificatesMakesThePinsTheOnlyAnchors() throws {
        let refused = try json(["--pins", "libraries/self-signed.pem"] + Self.selfSigned, status: 1)
        #expect(LiveRun.reasonCode(refused) == "untrusted-chain")
        let accepted = try json(["--pins", "libraries/self-signed.pem", "--accept-self-signed-certificates"]
            + Self.selfSigned, status: 0)
        #expect(Self.basis(accepted) == "pin-matched")
        let intermediate = try json(["--pins", "libraries/intermediate-ca.pem", "--accept-self-signed-certificates"]
            + Self.leafChain, status: 0)
        #expect((intermediate["chain"] as? [Any])?.count == 2, "the store's root is not an anchor any more")
        let excluded = try json(["--pins", "libraries/other-intermediate-ca.pem"] + Self.leafChain, status: 1)
        #expect(LiveRun.reasonCode(excluded) == "pin-not-in-chain")
        let storeGone = try json(["--pins", "libraries/other-intermediate-ca.pem", "--accept-self-signed-certificates"]
            + Self.leafChain, status: 1)
        #expect(LiveRun.reasonCode(storeGone) == "untrusted-chain")
    }

    /// validateHost alone is a full evaluation: the chain is unchecked only with both flags off.
    @Test func onlyBothFlagsOffLeaveTheChainUnchecked() throws {
        let pins = ["--pins", "libraries/self-signed.pem"]
        for flags in [["--no-default-validation"], ["--no-validate-host"]] {
            let object = try json(pins + flags + Self.selfSigned, status: 1)
            #expect(LiveRun.reasonCode(object) == "untrusted-chain", "\(flags)")
        }
        let result = try verify(pins + ["--no-default-validation", "--no-validate-host"] + Self.selfSigned)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("performDefaultValidation and validateHost are both off"), "\(result)")
    }

    @Test func noValidateHostStopsCheckingTheName() throws {
        let other = ["--chain", "libraries/leaf-chain.pem", "--host", "other.example.net",
                     "--pins", "libraries/intermediate-ca.pem"]
        #expect(LiveRun.reasonCode(try json(other, status: 1)) == "hostname-mismatch")
        #expect(LiveRun.reasonCode(try json(other + ["--no-default-validation"], status: 1)) == "hostname-mismatch")
        #expect(Self.basis(try json(other + ["--no-validate-host"], status: 0)) == "pin-matched")
        let standard = try json(["--evaluator", "default", "--no-validate-host"] + other, status: 0)
        #expect(Self.basis(standard) == "validated")
    }

    @Test func publicKeysPinTheKeyNotTheCertificate() throws {
        try TemporaryDirectory.with { directory in
            try OpenSSLCLI.run(["req", "-x509", "-key", LibraryCerts.path("leaf.key"), "-subj", "/CN=same key",
                                "-days", "10", "-out", "same-key.pem"], in: directory.path)
            let pins = ["--pins", directory.path("same-key.pem")] + Self.leafChain
            let certificate = try json(pins, status: 1)
            #expect(LiveRun.reasonCode(certificate) == "pin-not-in-chain")
            let key = try json(["--evaluator", "public-keys"] + pins, status: 0)
            #expect(Self.basis(key) == "pin-matched")
            #expect((key["matchedPin"] as? [String: Any])?["certificate"] as? Int == 0)
        }
    }

    @Test func defaultEvaluatorIgnoresPinsAndDisabledAcceptsAnything() throws {
        let pins = ["--pins", "libraries/other-intermediate-ca.pem"]
        #expect(LiveRun.reasonCode(try json(pins + Self.leafChain, status: 1)) == "pin-not-in-chain")
        let standard = try verify(["--evaluator", "default"] + pins + Self.leafChain)
        #expect(standard.status == 0, "\(standard)")
        #expect(standard.stderr.contains("1 pin(s) ignored: the default evaluator pins nothing"), "\(standard)")
        #expect(LiveRun.reasonCode(try json(["--evaluator", "default"] + Self.selfSigned, status: 1))
            == "untrusted-chain")
        let disabled = try verify(["--evaluator", "disabled"] + Self.selfSigned)
        #expect(disabled.status == 0, "\(disabled)")
        #expect(disabled.stderr.contains("DisabledTrustEvaluator accepts every certificate"), "\(disabled)")
        #expect(Self.basis(try json(["--evaluator", "disabled"] + Self.selfSigned, status: 0)) == "unchecked")
    }

    @Test func hashPinsAndMisplacedFlagsAreInputErrors() throws {
        let hash = try verify(["--pin", LibraryCerts.pin(of: "leaf.pem")] + Self.leafChain)
        #expect(hash.status == 2, "\(hash)")
        #expect(hash.stderr.contains("Alamofire pins certificates (or their keys), not hashes"), "\(hash)")
        for (flags, named) in [(["--evaluator", "public-keys", "--accept-self-signed-certificates"],
                                "--accept-self-signed-certificates"),
                               (["--evaluator", "default", "--no-default-validation"], "--no-default-validation"),
                               (["--evaluator", "disabled", "--no-validate-host"], "--no-validate-host")] {
            let result = try verify(flags + ["--pins", "libraries/leaf.pem"] + Self.leafChain)
            #expect(result.status == 2, "\(flags): \(result)")
            #expect(result.stderr.contains(named), "\(result)")
        }
        let elsewhere = try PinctlProcess.run(["verify", "--evaluator", "default"] + Self.leafChain)
        #expect(elsewhere.status == 2, "\(elsewhere)")
        #expect(elsewhere.stderr.contains("--evaluator is an option of --library alamofire"), "\(elsewhere)")
    }

    @Test func policyFileJudgesEachAlamofireAppAndRefusesBadKeysWithTheirLine() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: """
                version: 1
                apps:
                  - name: strict
                    library: alamofire
                    policy:
                      evaluators:
                        api.example.com: {kind: pinned-certificates, certificates: [\(LibraryCerts.path("leaf.pem"))]}
                  - name: self-signed
                    library: alamofire
                    policy:
                      evaluators:
                        api.example.com:
                          kind: pinned-certificates
                          certificates: [\(LibraryCerts.path("self-signed.pem"))]
                          acceptSelfSignedCertificates: true

                """)
            let run = { (file: String, format: [String]) in
                try PinctlProcess.run(["verify", "--config", file, "--ca-file", "libraries/root-ca.pem", "--at",
                                       TestTime.nowText] + format + Self.selfSigned)
            }
            let result = try run(file, ["--format", "json"])
            #expect(result.status == 1, "\(result)")
            let objects = try LiveRun.objects(result.stdout)
            #expect(objects.map { $0["app"] as? String } == ["strict", "self-signed"])
            #expect(objects.map { $0["verdict"] as? String } == ["rejected", "trusted"])
            #expect(objects.map { $0["library"] as? String } == ["alamofire", "alamofire"])

            let bad = try directory.write("bad.yaml", text: """
                version: 1
                apps:
                  - name: keys
                    library: alamofire
                    policy:
                      evaluators:
                        api.example.com:
                          kind: public-keys
                          keys: [\(LibraryCerts.path("leaf.pem"))]
                          acceptSelfSignedCertificates: true

                """)
            let refused = try run(bad, [])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("\(bad):10:"), "\(refused)")
            #expect(refused.stderr.contains("unknown key 'acceptSelfSignedCertificates'"), "\(refused)")
        }
    }
}
