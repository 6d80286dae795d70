import Foundation
import Glibc
import Testing
import TestSupport

/// serve judges a policy file that names platforms (DESIGN §12) as `check --config` does: on every version's store,
/// the versions with the same verdict grouped, each range a `platform` label of the app's metrics (DESIGN §11).
///
/// The server presents other-leaf-chain.pem (CN=pinning.test under Other Test Root CA, certs/README.md). The
/// snapshots of `StoresCommandTests.histories` have that root at API 25 and not at API 24 (the ISRG Root X1 and
/// Android 7.1.1 story), so by hand: the validating app is rejected on android@24 and trusted on android@25; the app
/// pinning the leaf's key with invalid certificates allowed trusts it on both, as two results: on API 24 its pin alone
/// trusts the chain as presented, on API 25 the path ends at the store's root (a different path is a different
/// result, PlatformJudges).
@Suite struct ServePlatformsTests {
    static let otherRoot = "CN=Other Test Root CA,O=Other Test"
    static let servername = [("servername", "pinning.test")]

    static func policyFile(target: String, platforms: String?) -> String {
        """
        version: 1
        targets: ["\(target)"]
        \(platforms.map { "platforms: [\($0)]" } ?? "")
        apps:
          - name: validating
            library: afnetworking
            hosts: [pinning.test]
            policy: { mode: none }
          - name: leaf-pinned
            library: afnetworking
            hosts: [pinning.test]
            policy: { mode: publickey, pins: [\(Certs.path("other-leaf.pem"))], allowInvalidCertificates: true }

        """
    }

    static func server() throws -> TLSTestServer {
        try TLSTestServer(chainPEM: Certs.path("other-leaf-chain.pem"), keyPath: Certs.path("other-leaf.key"))
    }

    /// Each (app, platform range)'s verdict from `pinctl_verdict{app,platform,reason}`, keyed "APP PLATFORM".
    static func probeVerdicts(_ answer: HTTPTestClient.Answer) throws -> [String: AppVerdict] {
        #expect(answer.status == 200, "\(answer)")
        var verdicts: [String: AppVerdict] = [:]
        for line in answer.samples("pinctl_verdict") {
            // pinctl_verdict{app="NAME",platform="RANGE",reason="CODE"} VALUE
            let fields = line.split(separator: "\"")
            try #require(fields.count == 7 && fields[2] == ",platform=", "\(line)")
            let value = line.split(separator: " ").last.flatMap { Double($0) }
            verdicts["\(fields[1]) \(fields[3])"] = AppVerdict(trusted: value == 1, reason: String(fields[5]))
        }
        return verdicts
    }

    /// Each (app, platform range)'s verdict from `check --config --format json`, keyed "APP NAME@VERSIONS".
    static func checkVerdicts(_ result: PinctlProcess.Result) throws -> [String: AppVerdict] {
        var verdicts: [String: AppVerdict] = [:]
        for object in try LiveRun.objects(result.stdout) {
            let app = try #require(object["app"] as? String, "\(result)")
            let platform = try #require(object["platform"] as? [String: Any], "\(result)")
            let range = "\(platform["name"] as? String ?? "?")@\(platform["versions"] as? String ?? "?")"
            let basis = (object["trust"] as? [String: Any])?["basis"] as? String
            verdicts["\(app) \(range)"] = AppVerdict(trusted: object["verdict"] as? String == "trusted",
                                                     reason: LiveRun.reasonCode(object) ?? basis ?? "")
        }
        return verdicts
    }

    static let expected = [
        "validating android@24": AppVerdict(trusted: false, reason: "untrusted-chain"),
        "validating android@25": AppVerdict(trusted: true, reason: "validated"),
        "leaf-pinned android@24": AppVerdict(trusted: true, reason: "pin-matched"),
        "leaf-pinned android@25": AppVerdict(trusted: true, reason: "pin-matched"),
    ]

    /// Today's main: serve refused the file at `platforms:` (exit 2) and no probe was answered.
    @Test func eachAppsMetricsCarryTheGroupedPlatformRangesThatCheckGives() throws {
        try StoresCommandTests.withStores { directory in
            let server = try Self.server()
            defer { server.stop() }
            let target = "127.0.0.1:\(server.port)"
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(target: target,
                                                                                platforms: "android@24-25"))
            let stores = ["--stores", directory.path("stores")]
            let check = try PinctlProcess.run(["check", target, "--servername", "pinning.test", "--config", file,
                                               "--at", TestTime.nowText, "--format", "json"] + stores)
            let exporter = try ServeProcess(["--config", file, "--at", TestTime.nowText] + stores)
            defer { exporter.stop() }
            let answer = try exporter.client.probe(target, Self.servername)

            #expect(check.status == 1, "\(check)")
            #expect(try Self.checkVerdicts(check) == Self.expected, "\(check)")
            #expect(try Self.probeVerdicts(answer) == Self.expected, "\(answer)")
            #expect(answer.metric("probe_success") == 0, "\(answer)")
            #expect(answer.metric("pinctl_probe_success", [("app", "validating"), ("platform", "android@24")]) == 0,
                    "\(answer)")
            #expect(answer.metric("pinctl_probe_success", [("app", "validating"), ("platform", "android@25")]) == 1,
                    "\(answer)")
            #expect(answer.metric("pinctl_probe_success", [("app", "leaf-pinned"), ("platform", "android@24")])
                    == 1, "\(answer)")
            #expect(answer.metric("pinctl_probe_success", [("app", "leaf-pinned"), ("platform", "android@25")])
                    == 1, "\(answer)")
            #expect(answer.samples("pinctl_probe_success").count == 4, "\(answer)")
            // The leaf's key is pinned without a backup: the leaf's renewal breaks it, due at its notAfter
            // (2125-01-01T00:00:00Z, openssl x509 -enddate), on the range where it trusts the chain. No rotation
            // breaks the app that pins nothing.
            for range in ["android@24", "android@25"] {
                #expect(answer.metric("pinctl_policy_breaks_on_seconds", [("app", "leaf-pinned"), ("platform", range)])
                        == ServeProbeTests.year2125, "\(answer)")
            }
            #expect(answer.samples("pinctl_policy_breaks_on_seconds").count == 2, "\(answer)")

            // app= asks one app: its ranges alone.
            let one = try exporter.client.probe(target, Self.servername + [("app", "leaf-pinned")])
            #expect(try Self.probeVerdicts(one)
                    == ["leaf-pinned android@24": AppVerdict(trusted: true, reason: "pin-matched"),
                        "leaf-pinned android@25": AppVerdict(trusted: true, reason: "pin-matched")], "\(one)")
            #expect(one.metric("probe_success") == 1, "\(one)")
            // The status page names each range too.
            let page = try exporter.client.get("/")
            #expect(page.body.contains("validating on android@24 rejected (untrusted-chain), validating on "
                + "android@25 trusted, leaf-pinned on android@24 trusted, leaf-pinned on android@25 trusted"),
                    "\(page)")
        }
    }

    /// A file without platforms: the labels are what they were, app alone (and reason), no platform label.
    @Test func aFileWithoutPlatformsKeepsItsLabels() throws {
        let server = try Self.server()
        defer { server.stop() }
        let target = "127.0.0.1:\(server.port)"
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(target: target, platforms: nil))
            let exporter = try ServeProcess(["--config", file, "--at", TestTime.nowText, "--ca-file",
                                             Certs.path("other-root-ca.pem")])
            defer { exporter.stop() }
            let answer = try exporter.client.probe(target, Self.servername)

            #expect(answer.metric("probe_success") == 1, "\(answer)")
            #expect(answer.metric("pinctl_probe_success", [("app", "validating")]) == 1, "\(answer)")
            #expect(answer.metric("pinctl_probe_success", [("app", "leaf-pinned")]) == 1, "\(answer)")
            #expect(answer.metric("pinctl_verdict", [("app", "validating"), ("reason", "validated")]) == 1)
            #expect(answer.metric("pinctl_verdict", [("app", "leaf-pinned"), ("reason", "pin-matched")]) == 1)
            #expect(!answer.body.split(separator: "\n").contains { !$0.hasPrefix("#") && $0.contains("platform") },
                    "\(answer)")
        }
    }

    /// SIGHUP to a file naming platforms judges on them from the next probe; to a file naming a version there is no
    /// snapshot of, the previous policy stays and the log says why, as for any file that does not load. Today's
    /// main: the first reload was refused at `platforms:`.
    @Test func aReloadTakesPlatformsAndKeepsTheOldPolicyForAnUnknownVersion() throws {
        try StoresCommandTests.withStores { directory in
            let server = try Self.server()
            defer { server.stop() }
            let target = "127.0.0.1:\(server.port)"
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(target: target, platforms: nil))
            let exporter = try ServeProcess(["--config", file, "--at", TestTime.nowText, "--stores",
                                             directory.path("stores")])
            defer { exporter.stop() }
            let before = try exporter.client.probe(target, Self.servername)
            #expect(before.metric("pinctl_verdict", [("app", "validating"), ("reason", "untrusted-chain")]) == 0,
                    "\(before)")

            _ = try directory.write("pinctl.yaml", text: Self.policyFile(target: target, platforms: "android@24-25"))
            exporter.signal(SIGHUP)
            #expect(exporter.waitForLog("policy file reloaded"), "\(exporter.stderr)")
            let after = try exporter.client.probe(target, Self.servername)
            #expect(try Self.probeVerdicts(after) == Self.expected, "\(after)")

            _ = try directory.write("pinctl.yaml", text: Self.policyFile(target: target, platforms: "android@23"))
            exporter.signal(SIGHUP)
            #expect(exporter.waitForLog("policy file not reloaded; the previous one stays in use"),
                    "\(exporter.stderr)")
            #expect(exporter.stderr.contains("pinctl.yaml: platforms: android has no snapshot of version 23"),
                    "\(exporter.stderr)")
            let kept = try exporter.client.probe(target, Self.servername)
            #expect(try Self.probeVerdicts(kept) == Self.expected, "\(kept)")
        }
    }

    /// At start, a version there is no snapshot of is a configuration error (exit 2) naming the key and the versions
    /// there are, as `check --config` gives it; the snapshots come from PINCTL_STORES as well as from --stores.
    @Test func anUnknownVersionAtStartIsAConfigurationErrorAtItsKey() throws {
        try StoresCommandTests.withStores { directory in
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(target: "127.0.0.1:1",
                                                                                platforms: "android@23"))
            let serve = try PinctlProcess.run(["serve", "--config", file, "--listen", "127.0.0.1:0"],
                                              environment: ["PINCTL_STORES": directory.path("stores")])
            let check = try PinctlProcess.run(["check", "--config", file, "--stores", directory.path("stores")])

            let message = "\(file): platforms: android has no snapshot of version 23 (in \"android@23\"); the "
                + "snapshots in \(directory.path("stores")) have 24, 25\n"
            #expect(serve.status == 2, "\(serve)")
            #expect(serve.stderr == "pinctl serve: " + message, "\(serve)")
            #expect(check.status == 2, "\(check)")
            #expect(check.stderr == "pinctl: " + message, "\(check)")
        }
    }
}
