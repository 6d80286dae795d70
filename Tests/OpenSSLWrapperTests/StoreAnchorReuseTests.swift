import OpenSSLWrapper
import TestSupport
import Testing

/// A verification ends at the store's own anchor, the one wrapped when the store was made, not a copy read back from
/// OpenSSL on every run: `pinctl serve` verifies every probe against the one store of its policy file (#22).
@Suite("Store anchor reuse")
struct StoreAnchorReuseTests {
    @Test func everyRunEndsAtTheStoresOwnAnchor() throws {
        let store = try TrustStore.caFiles([Certs.path("root-ca.pem")], directories: [])
        let stored = try #require(store.certificates.first)
        for _ in 0..<2 {
            let result = ChainVerifier.verify(
                leaf: Certs.one("leaf.pem"), untrusted: [Certs.one("intermediate-ca.pem")], store: store,
                options: VerificationOptions(time: TestTime.now, domain: "pinning.test", checksServerIdentity: true))
            #expect(result.isValid, "\(String(describing: result.failure))")
            #expect(result.chain.count == 3)
            #expect(result.anchor === stored)
            #expect(result.chain.last === stored)
        }
    }
}
