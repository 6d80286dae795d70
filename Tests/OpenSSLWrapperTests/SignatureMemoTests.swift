import OpenSSLWrapper
import Testing
import TestSupport

/// Each signature is checked once in a process (`SignatureMemo`), and what is remembered answers only for the key
/// that was checked: on the certs/paths/ chains, whose outcomes scripts/make-path-certs.sh checks with
/// `openssl verify`.
@Suite struct SignatureMemoTests {
    static func verify(_ leaf: String, untrusted: [String]) throws -> ChainVerification {
        let store = try TrustStore.caFiles([Certs.path("paths/root-a.pem")], directories: [])
        return ChainVerifier.verify(
            leaf: Certs.one(leaf), untrusted: untrusted.map(Certs.one), store: store,
            options: VerificationOptions(time: TestTime.now, domain: "paths.test", checksServerIdentity: true))
    }

    @Test func aChainVerifiedAgainChecksNoSignatureAgain() throws {
        let first = try Self.verify("paths/keyid-leaf.pem", untrusted: ["paths/keyid-ca.pem"])
        #expect(first.isValid, "\(String(describing: first.failure))")
        let before = SignatureMemo.hits
        let again = try Self.verify("paths/keyid-leaf.pem", untrusted: ["paths/keyid-ca.pem"])
        #expect(again.isValid, "\(String(describing: again.failure))")
        // The leaf's signature by keyid-ca and keyid-ca's by root-a; other tests running meanwhile can only add.
        #expect(SignatureMemo.hits - before >= 2)
    }

    @Test func aSignatureRememberedForOneKeyDoesNotVouchForAnother() throws {
        // The leaf's signature by keyid-ca's key is remembered as valid first.
        #expect(try Self.verify("paths/keyid-leaf.pem", untrusted: ["paths/keyid-ca.pem"]).isValid)
        // impostor-ca has keyid-ca's name and key identifier and another key: openssl verify, error 7 at 0
        // (certificate signature failure).
        let impostor = try Self.verify("paths/keyid-leaf.pem", untrusted: ["paths/impostor-ca.pem"])
        #expect(impostor.failure?.code == 7)
        #expect(impostor.failure?.depth == 0)
        // And the other way round: a failure remembered against the impostor's key does not refuse the right one.
        #expect(try Self.verify("paths/keyid-leaf.pem", untrusted: ["paths/keyid-ca.pem"]).isValid)
    }
}
