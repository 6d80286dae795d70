import OpenSSLWrapper
import Testing
import TestSupport

/// `ChainVerifier` tries the other paths when OpenSSL's fails (DESIGN §12), on the certs/paths/ chains whose
/// outcomes scripts/make-path-certs.sh checks with `openssl verify`.
@Suite struct PathBacktrackingTests {
    static func verify(
        _ leaf: String, untrusted: [String], anchors: [String], domain: String = "paths.test"
    ) throws -> ChainVerification {
        let store = try TrustStore.caFiles(anchors.map(Certs.path), directories: [])
        return ChainVerifier.verify(
            leaf: Certs.one(leaf), untrusted: untrusted.map(Certs.one), store: store,
            options: VerificationOptions(time: TestTime.now, domain: domain, checksServerIdentity: true))
    }

    @Test func theDeadEndIsRefusedAndTheOtherPathTaken() throws {
        let result = try Self.verify(
            "paths/leaf.pem", untrusted: ["paths/intermediate-by-b.pem", "paths/intermediate-by-a.pem"],
            anchors: ["paths/root-a.pem"])
        #expect(result.isValid, "\(String(describing: result.failure))")
        #expect(result.chain == ["paths/leaf.pem", "paths/intermediate-by-a.pem", "paths/root-a.pem"].map(Certs.one))
        #expect(result.anchor == Certs.one("paths/root-a.pem"))
        // openssl verify: error 20 at 1 depth lookup (unable to get local issuer certificate).
        let refused = try #require(result.refusedPaths.first)
        #expect(result.refusedPaths.count == 1)
        #expect(refused.chain == ["paths/leaf.pem", "paths/intermediate-by-b.pem"].map(Certs.one))
        #expect(refused.failure.code == 20)
        #expect(refused.failure.depth == 1)
    }

    @Test func anIssuerWithABorrowedKeyIdentifierIsPassedOver() throws {
        let result = try Self.verify(
            "paths/keyid-leaf.pem", untrusted: ["paths/impostor-ca.pem", "paths/keyid-ca.pem"],
            anchors: ["paths/root-a.pem"])
        #expect(result.isValid, "\(String(describing: result.failure))")
        #expect(result.chain.dropFirst().first == Certs.one("paths/keyid-ca.pem"))
        // openssl verify: error 7 at 0 depth lookup (certificate signature failure).
        #expect(result.refusedPaths.map(\.failure.code) == [7])
    }

    @Test func aFailureAboutTheLeafAloneIsNotRetried() throws {
        // OpenSSL's path ends at Root A and fails on the name; the path through Root B would fail on it too.
        let result = try Self.verify(
            "paths/leaf.pem", untrusted: ["paths/intermediate-by-a.pem", "paths/intermediate-by-b.pem"],
            anchors: ["paths/root-a.pem", "paths/root-b.pem"], domain: "other.test")
        #expect(result.failure?.code == 62)
        #expect(result.refusedPaths.isEmpty)
    }

    @Test func whenEveryPathFailsOpenSSLsFailureIsKept() throws {
        let result = try Self.verify(
            "paths/leaf.pem", untrusted: ["paths/intermediate-by-b.pem", "paths/intermediate-by-a.pem"],
            anchors: ["paths/root-b-expired.pem"])
        // openssl verify: error 10 at 2 depth lookup (certificate has expired), Root B's dates.
        #expect(result.failure?.code == 10)
        #expect(result.failure?.depth == 2)
        #expect(result.chain.count == 3)
    }
}
