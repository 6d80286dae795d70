import Foundation
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// x509-limbo-style chains (certs/limbo/): what OpenSSL's defaults accept but Apple's TLS policy rejects, and the
/// controls that must still pass. OpenSSL's codes are those `openssl verify -auth_level 2` gives (checked by
/// scripts/make-limbo-certs.sh); the messages are written by hand.
@Suite("Limbo chains")
struct LimboTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let presented: [String]
        var anchor = "root-ca.pem"
        var domain: String? = "limbo.test"
        let index: Int
        let code: Int32
        let message: String

        var testDescription: String { presented[0] }
    }

    static func evaluate(
        _ presented: [String], anchor: String, domain: String?, policy: AFNetworkingPolicy = policy(.none)
    ) throws -> Evaluation {
        let store = try TrustStore.caFiles([Certs.path("limbo/" + anchor)], directories: [])
        let evaluator = TrustEvaluator(policy: policy, anchors: store, time: TestTime.now)
        return evaluator.evaluate(presented: presented.map { Certs.one("limbo/" + $0) }, domain: domain)
    }

    static let rejected: [Case] = [
        Case(presented: ["rsa1024-leaf.pem", "intermediate-ca.pem"], index: 0, code: 66,
             message: "RSA key of 1024 bits; at least 2048 are required"),
        Case(presented: ["p192-leaf.pem", "intermediate-ca.pem"], index: 0, code: 66,
             message: "EC P-192 key of 192 bits; at least 224 are required"),
        Case(presented: ["dsa-leaf.pem", "intermediate-ca.pem"], index: 0, code: 66,
             message: "DSA key; only RSA and EC keys are accepted"),
        Case(presented: ["ed25519-leaf.pem", "intermediate-ca.pem"], index: 0, code: 66,
             message: "Ed25519 key; only RSA and EC keys are accepted"),
        Case(presented: ["leaf-under-rsa1024-intermediate.pem", "rsa1024-intermediate-ca.pem"], index: 1, code: 67,
             message: "RSA key of 1024 bits; at least 2048 are required"),
        Case(presented: ["leaf-under-sha1-intermediate.pem", "sha1-intermediate-ca.pem"], index: 1, code: 68,
             message: "signed with ecdsa-with-SHA1, a digest too weak for TLS"),
        // The anchor's key counts too: the store's root is #1 of the reported chain.
        Case(presented: ["leaf-under-rsa1024-root.pem"], anchor: "rsa1024-root-ca.pem", index: 1, code: 67,
             message: "RSA key of 1024 bits; at least 2048 are required"),
        Case(presented: ["leaf-under-dsa-root.pem"], anchor: "dsa-root-ca.pem", index: 1, code: 67,
             message: "DSA key; only RSA and EC keys are accepted"),
        // The wildcard matches www.example.com, so the name check passes: the name constraints decide.
        Case(presented: ["wildcard-in-excluded.pem", "excluding-ca.pem"], domain: "www.example.com", index: 0, code: 48,
             message: "the wildcard DNS:*.example.com covers names in the DNS subtree test.example.com, which "
                + "CN=Limbo Excluding CA,O=pinctl Limbo excludes (name constraints)"),
        Case(presented: ["wildcard-in-excluded.pem", "excluding-ca.pem"], domain: nil, index: 0, code: 48,
             message: "the wildcard DNS:*.example.com covers names in the DNS subtree test.example.com"),
        Case(presented: ["san-outside-permitted.pem", "permitting-ca.pem"], domain: nil, index: 0, code: 47,
             message: "permitted subtree violation"),
    ]

    @Test("Rejected as an untrusted chain naming the certificate and what is wrong", arguments: rejected)
    func rejectedChain(_ example: Case) throws {
        let evaluation = try Self.evaluate(example.presented, anchor: example.anchor, domain: example.domain)
        expectVerdict(evaluation, is: .rejected("untrusted-chain", at: example.index))
        #expect(evaluation.rejection?.reason.verificationFailure?.code == example.code)
        let subject = evaluation.chain[example.index].subject
        let expected = "untrusted chain: certificate #\(example.index) (\(subject)): \(example.message)"
        let message = evaluation.rejectionMessage ?? ""
        #expect(message.hasPrefix(expected), "\(message)")
        #expect(message.contains("(OpenSSL error \(example.code) at depth \(example.index),"), "\(message)")
    }

    @Test("Controls that must still pass", arguments: [
        (["leaf-under-sha1-root.pem"], "sha1-root-ca.pem", "limbo.test"),
        (["wildcard-outside-excluded.pem", "excluding-ca.pem"], "root-ca.pem", "a.other.example.com"),
        (["wildcard-outside-excluded.pem", "excluding-ca.pem"], "root-ca.pem", nil),
        (["cn-outside-permitted.pem", "permitting-ca.pem"], "root-ca.pem", "127.0.0.1"),
        (["cn-outside-permitted.pem", "permitting-ca.pem"], "root-ca.pem", nil),
    ] as [([String], String, String?)])
    func controlIsTrusted(_ presented: [String], anchor: String, domain: String?) throws {
        expectVerdict(try Self.evaluate(presented, anchor: anchor, domain: domain), is: .trusted)
    }

    @Test func aPinnedCertificateIsStillHeldToTheKeyRules() throws {
        // Certificate mode with invalid certificates allowed: the pinned leaf is the only anchor, and still refused.
        let pinned = PinnedCertificate(certificate: Certs.one("limbo/dsa-leaf.pem"), source: PinSource("dsa-leaf.pem"))
        let policy = AFNetworkingPolicy(
            mode: .certificate, pinnedCertificates: [pinned], pinnedKeyHashes: [], allowInvalidCertificates: true,
            validatesDomainName: true)
        let evaluation = try Self.evaluate(
            ["dsa-leaf.pem"], anchor: "root-ca.pem", domain: "limbo.test", policy: policy)
        expectVerdict(evaluation, is: .rejected("untrusted-chain", at: 0))
        #expect(evaluation.rejectionMessage?.contains("DSA key; only RSA and EC keys are accepted") == true)
    }

    @Test func anUnreadableStoreEntryIsAWarningAndTheRejectionNamesIt() throws {
        try TemporaryDirectory.with { directory in
            try MalformedStore.make(in: directory.path)
            let store = try TrustStore.caFiles([], directories: [directory.path])
            let evaluator = TrustEvaluator(policy: policy(.none), anchors: store, time: TestTime.now)
            let evaluation = evaluator.evaluate(
                presented: [Certs.one("leaf.pem"), Certs.one("intermediate-ca.pem")], domain: "pinning.test")
            expectVerdict(evaluation, is: .rejected("untrusted-chain"))
            let message = evaluation.rejectionMessage ?? ""
            #expect(message.hasPrefix("untrusted chain: certificate \(MalformedStore.subject) (a trust store entry "
                + "that cannot be read): format error in certificate's notBefore field (OpenSSL error 13 at depth 2"),
                "\(message)")
            expectWarning(evaluation, containing: "the certificate \(MalformedStore.subject) cannot be read")
            #expect(evaluation.chain.count == 2)
        }
    }
}
