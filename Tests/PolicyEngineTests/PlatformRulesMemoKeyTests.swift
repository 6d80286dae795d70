import Foundation
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// `pinctl serve` and `check` reuse a verification on a platform version only under the same rules (#22): a version's
/// rules (DESIGN §12) key the memo by what decides a verification, Certificate Transparency's by the log list and the
/// SCTs a server sent, and only at the same time.
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

    @Test func rulesThatRequireCertificateTransparencyAreKeyedByTheListAndTheSCTsSent() throws {
        let logs = try CTLogList(path: try SharedData.stores() + "/apple-ct-logs.cnf")
        let text = try String(contentsOfFile: Certs.path("ct/ct-logs.cnf"), encoding: .utf8)
        let other = try CTLogList(bytes: Array(("list_date = 2025-09-01\nlist_source = certs/ct\n" + text).utf8),
                                  path: "ct-logs.cnf")
        var sent = try Self.rules(apple: true, ct: logs)
        sent.sentSCTs = [[1, 2, 3]]
        var split = try Self.rules(apple: true, ct: logs)
        split.sentSCTs = [[1], [2, 3]]

        let key = try Self.rules(apple: true, ct: logs).memoKey
        #expect(key != nil)
        #expect(try Self.rules(apple: true, ct: logs).memoKey == key)
        #expect(try Self.rules(apple: true).memoKey != key)
        #expect(try Self.rules(apple: true, ct: other).memoKey != key)
        #expect(sent.memoKey != key && split.memoKey != key && sent.memoKey != split.memoKey)
        #expect(try Self.rules(apple: true, ct: logs).memoRequiresSameTime)
        #expect(try !Self.rules(apple: true).memoRequiresSameTime)
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
