import FoundationEssentials
import OpenSSLWrapper
import TestSupport
import Testing

/// `pinctl serve` reuses a chain's verification from one probe to the next (#22), but only where running it again
/// must give the same result. The fixture chain leaf.pem ← intermediate-ca.pem ← root-ca.pem is valid from
/// 2025-01-01 to 2125-01-01 (`openssl x509 -dates`).
@Suite("Verification memo")
struct VerificationMemoTests {
    static let june2026 = TestTime.now
    /// Still inside every fixture's validity, a century later.
    static let december2124 = Date(timeIntervalSince1970: 4_890_153_600)  // 2124-12-18T00:00:00Z
    /// After the fixtures' notAfter.
    static let june2125 = Date(timeIntervalSince1970: 4_904_409_600)  // 2125-06-01T00:00:00Z
    /// Before their notBefore.
    static let june2024 = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01T00:00:00Z

    static func verify(
        at time: Date, memo: VerificationMemo, store: TrustStore? = nil, host: String = "pinning.test",
        rule: (any PathRule)? = nil
    ) throws -> ChainVerification {
        let anchors = try store ?? TrustStore.caFiles([Certs.path("root-ca.pem")], directories: [])
        var options = VerificationOptions(time: time, domain: host, checksServerIdentity: true)
        options.pathRule = rule
        return ChainVerifier.verify(
            leaf: Certs.one("leaf.pem"), untrusted: [Certs.one("intermediate-ca.pem")], store: anchors,
            options: options, memo: memo)
    }

    /// Rules given from above (a platform's, in the engine): they refuse every path or none, and are keyed by
    /// `memoKey`.
    struct Rule: PathRule {
        let refuses: Bool
        let memoKey: String?
        var memoRequiresSameTime = false
        var checksAnchorValidity: Bool { true }

        func judge(_ path: [X509Certificate], anchor: X509Certificate, at time: Date) -> PathRuling {
            PathRuling(refusal: refuses ? (0, "refused by the test's rule") : nil)
        }
    }

    @Test func rulesWithTheSameKeyAreAnsweredFromMemoryAndOtherRulesAreNot() throws {
        let memo = VerificationMemo(capacity: 8)
        #expect(try Self.verify(at: Self.june2026, memo: memo, rule: Rule(refuses: false, memoKey: "a")).isValid)
        #expect(try Self.verify(at: Self.june2026, memo: memo, rule: Rule(refuses: false, memoKey: "a")).isValid)
        #expect(memo.hits == 1)
        let refused = try Self.verify(at: Self.june2026, memo: memo, rule: Rule(refuses: true, memoKey: "b"))
        #expect(refused.failure?.code == VerificationFailure.pathRuleCode, "\(String(describing: refused.failure))")
        #expect(refused.failure?.message == "refused by the test's rule")
        #expect(memo.hits == 1)
        // And no rules at all is another again.
        #expect(try Self.verify(at: Self.june2026, memo: memo).isValid)
        #expect(memo.hits == 1)
    }

    /// Rules whose verdict changes at other times than the certificates' dates (Apple's CT) are answered from memory
    /// at the same time only.
    @Test func rulesThatRequireTheSameTimeAreRememberedAtThatTimeOnly() throws {
        let memo = VerificationMemo(capacity: 8)
        let rule = Rule(refuses: false, memoKey: "ct", memoRequiresSameTime: true)
        _ = try Self.verify(at: Self.june2026, memo: memo, rule: rule)
        _ = try Self.verify(at: Self.june2026, memo: memo, rule: rule)
        #expect(memo.hits == 1)
        _ = try Self.verify(at: Self.june2026.addingTimeInterval(1), memo: memo, rule: rule)
        #expect(memo.hits == 1)
    }

    @Test func rulesWithoutAKeyAreNeverRemembered() throws {
        let memo = VerificationMemo(capacity: 8)
        _ = try Self.verify(at: Self.june2026, memo: memo, rule: Rule(refuses: false, memoKey: nil))
        _ = try Self.verify(at: Self.june2026, memo: memo, rule: Rule(refuses: false, memoKey: nil))
        #expect(memo.hits == 0)
    }

    @Test func theSameChainAtAnotherTimeOfTheSameValidityIsAnsweredFromMemory() throws {
        let memo = VerificationMemo(capacity: 8)
        let first = try Self.verify(at: Self.june2026, memo: memo)
        let again = try Self.verify(at: Self.december2124, memo: memo)
        #expect(first.isValid && again.isValid)
        #expect(again.chain.count == 3)
        #expect(memo.hits == 1)
    }

    @Test(arguments: [(june2125, Int32(10)), (june2024, Int32(9))])
    func aTimeAcrossANotAfterOrNotBeforeIsVerifiedAgain(time: Date, expectedCode: Int32) throws {
        let memo = VerificationMemo(capacity: 8)
        #expect(try Self.verify(at: Self.june2026, memo: memo).isValid)
        let later = try Self.verify(at: time, memo: memo)
        // 10: certificate has expired; 9: certificate is not yet valid (OpenSSL's x509_vfy.h).
        #expect(later.failure?.code == expectedCode, "\(String(describing: later.failure))")
        #expect(memo.hits == 0)
        // And the other way: a rejection remembered at that time does not stand at a time the chain is valid.
        #expect(try Self.verify(at: Self.june2026, memo: memo).isValid)
    }

    @Test func otherAnchorsOrAnotherNameAreAnotherVerification() throws {
        let memo = VerificationMemo(capacity: 8)
        #expect(try Self.verify(at: Self.june2026, memo: memo).isValid)
        let otherRoot = try TrustStore.caFiles([Certs.path("other-root-ca.pem")], directories: [])
        let untrusted = try Self.verify(at: Self.june2026, memo: memo, store: otherRoot)
        #expect(untrusted.failure?.code == 20, "\(String(describing: untrusted.failure))")  // unable to get local issuer
        let wrongName = try Self.verify(at: Self.june2026, memo: memo, host: "other.test")
        #expect(wrongName.failure?.code == 62, "\(String(describing: wrongName.failure))")  // hostname mismatch
        #expect(memo.hits == 0)
    }

    @Test func anchorsInAHashedDirectoryAreNeverRemembered() throws {
        try TemporaryDirectory.with { directory in
            let hashed = try directory.makeDirectory("hashed")
            try directory.write("hashed/\(Certs.opensslHash("root-ca.pem")).0", bytes: Certs.bytes("root-ca.pem"))
            let store = try TrustStore.caFiles([], directories: [hashed])
            let memo = VerificationMemo(capacity: 8)
            #expect(try Self.verify(at: Self.june2026, memo: memo, store: store).isValid)
            #expect(try Self.verify(at: Self.june2026, memo: memo, store: store).isValid)
            #expect(memo.hits == 0)
        }
    }

    @Test func theOldestVerificationGoesOnceTheCapacityIsReached() throws {
        let memo = VerificationMemo(capacity: 1)
        _ = try Self.verify(at: Self.june2026, memo: memo)
        _ = try Self.verify(at: Self.june2026, memo: memo, host: "other.test")
        _ = try Self.verify(at: Self.june2026, memo: memo)
        #expect(memo.hits == 0)
        _ = try Self.verify(at: Self.june2026, memo: memo)
        #expect(memo.hits == 1)
    }
}
