import Checking
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// The checking core without a process, on the devices apps run on (DESIGN §12) and with a policy given by flags: the
/// plan reads an app's Info.plist once and judges it only on the versions where its library exists. The chain is
/// stackoverflow.com's as its server presented it (../shared/chains), on the team's store snapshot (../shared/stores).
@Suite struct CheckPlanPlatformTests {
    /// Base64 of 32 × "A": a key no chain holds.
    static let absentKey = "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="
    static let at = Date(timeIntervalSince1970: 1_772_323_200)  // 2026-03-01T00:00:00Z

    static func platforms(_ selectors: [String]) throws -> PlatformSettings {
        PlatformSettings(selectors: selectors, storesDirectory: StoreLocation(option: try SharedData.stores(),
                                                                              environment: nil, executable: nil))
    }

    /// Each report's verdict by its platform range ("ios 13", "ios 14"), from the results of one chain.
    static func verdicts(_ results: [TargetResult]) -> [String: Bool] {
        var verdicts: [String: Bool] = [:]
        for report in results.reports {
            let range = report.platform.map { "\($0.platform) \($0.versions)" } ?? "none"
            verdicts[range] = report.evaluation.isTrusted
        }
        return verdicts
    }

    /// An ats app read from its Info.plist (`config:`), whose CA identity is no key of the chain: NSPinnedDomains
    /// exists from iOS 14 (Apple's documentation of the key: "iOS 14.0+"), so iOS 13 trusts the chain unpinned.
    @Test func anInfoPlistAppIsPinnedOnlyFromIOS14() throws {
        try TemporaryDirectory.with { directory in
            _ = try directory.write("Info.plist", bytes: ATSPlist.xml([
                "stackoverflow.com": ["NSPinnedCAIdentities": [["SPKI-SHA256-BASE64": Self.absentKey]]],
            ]))
            let path = try directory.write("pinctl.yaml", text: """
                apps:
                  - name: ios
                    library: ats
                    config: Info.plist

                """)
            let settings = PolicySettings(config: path, library: .afnetworking, flags: PolicyFlags(),
                                          anchors: AnchorSettings(time: Self.at), warnDays: 30)
            let plan = try CheckPlan(settings, platforms: try Self.platforms(["ios@13-14"]))
            let chain = try CertificateParser.certificates(atPath: try SharedData.chain("stackoverflow.com.pem"))
            let results = plan.judge(chain, target: "stackoverflow.com.pem", domain: "stackoverflow.com")
            #expect(Self.verdicts(results) == ["ios 13": true, "ios 14": false], "\(results)")
        }
    }

    /// A policy given by flags is the library's definition's: `--library ats --ats-identities leaf` with the leaf's
    /// key trusts, the same key as a CA identity (the default) does not.
    @Test func aPolicyGivenByFlagsIsJudgedByItsLibrary() throws {
        let chain = try CertificateParser.certificates(atPath: try SharedData.chain("stackoverflow.com.pem"))
        let leafKey = PinFormat.pin(of: chain[0])
        func trusted(_ settings: [(flag: String, value: String)]) throws -> [String: Bool] {
            let policy = PolicySettings(config: nil, library: .ats,
                                        flags: PolicyFlags(inlinePins: [leafKey], settings: settings),
                                        anchors: AnchorSettings(time: Self.at), warnDays: 30)
            let plan = try CheckPlan(policy, platforms: try Self.platforms(["ios@26"]))
            return Self.verdicts(plan.judge(chain, target: "stackoverflow.com.pem", domain: "stackoverflow.com"))
        }
        #expect(try trusted([("--ats-identities", "leaf")]) == ["ios 26": true])
        #expect(try trusted([]) == ["ios 26": false])
    }

    /// A target nothing listens on is a failure of the check, one per app, never a verdict.
    @Test func aTargetThatRefusesTheConnectionFailsTheCheck() throws {
        let port = try HostilePeer.refusedPort()
        let settings = PolicySettings(config: nil, library: .afnetworking, flags: PolicyFlags(),
                                      anchors: AnchorSettings(time: TestTime.now), warnDays: 30)
        let plan = try CheckPlan(settings, platforms: PlatformSettings(storesDirectory: StoreLocation(
            option: nil, environment: nil, executable: nil)))
        let live = LiveSettings(connection: ConnectionSettings(servername: "pinning.test", timeout: 5, family: .any,
                                                               environment: [:]))
        let results = plan.check(try Target(parsing: "127.0.0.1:\(port)"), live)
        let failures = results.compactMap { result -> FailureReport? in
            guard case .failed(let failure) = result else { return nil }
            return failure
        }
        #expect(results.count == 1 && failures.count == 1, "expected one failure, got \(results)")
        #expect(failures.first?.target == "127.0.0.1:\(port)")
        #expect(failures.first?.code == "refused", "\(failures)")
    }
}
