import Foundation
import PolicyEngine
import TestSupport
import Testing

/// TrustKit's validator and lookup (DESIGN §6, corrected by TrustKit's source) as truth tables.
@Suite("TrustKit truth table")
struct TrustKitTruthTableTests {
    @Test("TrustKit verdicts", arguments: trustKitTruthTable)
    func rowHasTheVerdictTrustKitGivesIt(_ row: TKRow) throws {
        let policy = try TrustKitPolicy(domains: row.domains.map { ($0.name, $0.policy) })
        let context = EvaluationContext(platformAnchors: LibraryCerts.store(),
                                        time: TestTime.now.addingTimeInterval(row.after))
        let evaluation = PolicyEvaluator(context: context).evaluate(
            policy, presented: row.chain.flatMap(LibraryCerts.load), domain: row.host)
        expectVerdict(evaluation, is: row.expected)
        if let warning = row.warning { expectWarning(evaluation, containing: warning) }
    }

    @Test("TrustKit lookup", arguments: trustKitLookupTable)
    func hostFindsTheDomainTrustKitFinds(_ row: TKLookup) throws {
        let policy = try TrustKitPolicy(domains: row.domains.map { ($0.name, $0.policy) })
        #expect(policy.pinnedDomain(for: row.host) == row.expected)
        #expect(policy.hasRule(for: row.host) == (row.expected != nil))
    }

    @Test func aPinnedHostWithoutNearMissesCarriesNoNameWarning() throws {
        let policy = try TrustKitPolicy(domains: [TKDomain.pinned("api.example.com", ["X", "Y"]).entry])
        let context = EvaluationContext(platformAnchors: LibraryCerts.store(), time: TestTime.now)
        let evaluation = PolicyEvaluator(context: context).evaluate(
            policy, presented: TKChain.leaf.flatMap(LibraryCerts.load), domain: "www.example.com")
        expectWarning(evaluation, containing: "matches host names exactly", present: false)
    }
}
