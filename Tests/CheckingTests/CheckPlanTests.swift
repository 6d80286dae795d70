import Checking
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// The checking core without a process (issue #34): a plan built from a policy file judges a chain it is given and a
/// live loopback target alike, one report per app. The fixture chain leaf.pem ← intermediate-ca.pem ← root-ca.pem is
/// for pinning.test; certs/pins/leaf.pin is the leaf's key (`openssl x509 -pubkey | openssl pkey -pubin -outform der
/// | openssl dgst -sha256 -binary | base64`), and the OkHttp app pins the root's key, which the chain also holds.
@Suite struct CheckPlanTests {
    /// Two apps that trust the chain by its leaf's and its root's key, and one that pins a key it does not hold.
    static func policy(in directory: TemporaryDirectory) throws -> String {
        try directory.write("pinctl.yaml", text: """
            anchors: { ca-files: [\(Certs.path("root-ca.pem"))] }
            apps:
              - name: afn
                library: afnetworking
                hosts: [pinning.test]
                policy: { mode: publickey, pins: [\(Certs.path("pins/leaf.pin"))] }
              - name: sdk
                library: okhttp
                policy:
                  pins:
                    pinning.test: [\(try Self.pin("root.pin"))]
              - name: stale
                library: okhttp
                policy:
                  pins:
                    pinning.test: [sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=]

            """)
    }

    /// The `sha256/…` line of a pin file of certs/pins/.
    static func pin(_ name: String) throws -> String {
        let text = try String(contentsOfFile: Certs.path("pins/" + name), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("sha256/") })
        return String(line.split(separator: " ")[0])
    }

    static func plan(_ path: String) throws -> CheckPlan {
        let settings = PolicySettings(config: path, library: .afnetworking, flags: PolicyFlags(),
                                      anchors: AnchorSettings(time: TestTime.now), warnDays: 30)
        return try CheckPlan(settings, platforms: PlatformSettings(storesDirectory: StoreLocation(option: nil, environment: nil, executable: nil)))
    }

    /// Each app's verdict, by name, from the results of one chain.
    static func verdicts(_ results: [TargetResult]) -> [String: Bool] {
        var verdicts: [String: Bool] = [:]
        for report in results.reports { verdicts[report.app?.name ?? ""] = report.evaluation.isTrusted }
        return verdicts
    }

    @Test func aChainGivenIsJudgedByEveryAppThatCoversItsHost() throws {
        try TemporaryDirectory.with { directory in
            let plan = try Self.plan(try Self.policy(in: directory))
            let results = plan.judge(Certs.load("leaf-fullchain.pem"), target: "leaf-fullchain.pem",
                                      domain: "pinning.test")
            #expect(Self.verdicts(results) == ["afn": true, "sdk": true, "stale": false])
            #expect(plan.apps(covering: "other.test").isEmpty)
        }
    }

    @Test func aLiveTargetIsJudgedAsTheSameChainGivenOffline() throws {
        try TemporaryDirectory.with { directory in
            let plan = try Self.plan(try Self.policy(in: directory))
            let server = try TLSTestServer(chainPEM: [Certs.path("leaf.pem"), Certs.path("intermediate-ca.pem")],
                                           keyPath: Certs.path("leaf.key"))
            defer { server.stop() }
            let live = LiveSettings(connection: ConnectionSettings(servername: "pinning.test", timeout: 10,
                                                                   family: .any, environment: [:]))
            let results = plan.check(try Target(parsing: "127.0.0.1:\(server.port)"), live)
            #expect(Self.verdicts(results) == ["afn": true, "sdk": true, "stale": false], "\(results)")
        }
    }
}
