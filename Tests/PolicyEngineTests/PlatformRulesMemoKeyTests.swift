import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// `pinctl serve` reuses a verification on a platform version only under the same rules (#22): a version's rules
/// (DESIGN §12) key the memo by what decides a verification, and rules that read more than the path (Certificate
/// Transparency counts the SCTs a server sent) are never remembered.
@Suite struct PlatformRulesMemoKeyTests {
    static func rules(apple: Bool = false, anchorDates: Bool = false, ct: CTLogList? = nil,
                      root: String = "root-ca.pem") throws -> PlatformRules {
        PlatformRules(appliesAppleServerPolicy: apple, checksAnchorValidity: anchorDates,
                      systemRoots: try TrustStore.caFiles([Certs.path(root)], directories: []),
                      userRoots: nil, certificateTransparency: ct)
    }

    @Test func theSameRulesHaveOneKeyAndEveryDifferenceAnother() throws {
        let key = try Self.rules().memoKey
        #expect(key != nil)
        #expect(try Self.rules().memoKey == key)
        let others = try [Self.rules(apple: true), Self.rules(anchorDates: true), Self.rules(root: "other-root-ca.pem")]
        for other in others { #expect(other.memoKey != key) }
        #expect(Set(others.map(\.memoKey)).count == 3)
    }

    @Test func rulesThatRequireCertificateTransparencyHaveNoKey() throws {
        let logs = try CTLogList(path: try SharedData.stores() + "/apple-ct-logs.cnf")
        #expect(try Self.rules(apple: true, ct: logs).memoKey == nil)
    }

    /// The rules refuse through the verifier as any check does: the fixture leaf's 100 years break Apple's 398 days
    /// for a chain to a system root issued from 1 September 2020 (HT211025).
    @Test func theVerifierAppliesTheRulesItIsHanded() throws {
        let store = try TrustStore.caFiles([Certs.path("root-ca.pem")], directories: [])
        var options = VerificationOptions(time: TestTime.now, domain: "pinning.test", checksServerIdentity: true)
        options.pathRule = try Self.rules(apple: true)
        let refused = ChainVerifier.verify(leaf: Certs.one("leaf.pem"), untrusted: [Certs.one("intermediate-ca.pem")],
                                           store: store, options: options, memo: nil)
        #expect(refused.failure?.code == PlatformRules.failureCode, "\(String(describing: refused.failure))")
        #expect(refused.failure?.message.contains("398 days") == true, "\(String(describing: refused.failure))")
    }
}
