@testable import Checking
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// Versions that judge a chain alike are judged once (DESIGN §12, "versions at the cost of one"): counted by how often
/// `PlatformJudges` asks for a judgement, on the team's store snapshot (../shared/stores).
@Suite struct VersionClassTests {
    /// How many judgements the stackoverflow.com chain takes on `selector`, with `caFiles` as the user's roots.
    static func judgements(_ selector: String, caFiles: [String] = []) throws -> Int {
        let chain = try CertificateParser.certificates(atPath: try SharedData.chain("stackoverflow.com.pem"))
        let settings = PolicySettings(config: nil, library: .afnetworking, flags: PolicyFlags(),
                                      anchors: AnchorSettings(caFiles: caFiles, time: CheckPlanPlatformTests.at),
                                      warnDays: 30)
        let judges = try PlatformJudges(settings, on: try CheckPlanPlatformTests.platforms([selector]).stores())
        var count = 0
        _ = judges.results(presented: chain, { _ in
            count += 1
            return []
        }, unreadable: { reason in
            Issue.record("a root cannot be read: \(reason)")
            return []
        })
        return count
    }

    /// Neither Android 6.0 nor 7.0 has ISRG Root X1 (Let's Encrypt's compatibility page: from 7.1.1), and the opt-in
    /// to user roots from API 24 (NetworkSecurityConfig.getDefaultBuilder) has nothing to decide without any: one
    /// judgement for both. With roots given as the user's, the two differ, and each is judged.
    @Test func theUserRootsOptInDividesVersionsOnlyWhenUserRootsAreGiven() throws {
        #expect(try Self.judgements("android@23-24") == 1)
        #expect(try Self.judgements("android@23-24", caFiles: [Certs.path("root-ca.pem")]) == 2)
        // ISRG Root X1 from API 25 divides them whatever is given.
        #expect(try Self.judgements("android@24-25") == 2)
    }
}
