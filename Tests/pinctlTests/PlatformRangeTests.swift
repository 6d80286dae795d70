import Foundation
import Testing
import TestSupport

/// What makes a platform range (DESIGN §12, "one result per (target, app, platform range)"; "lint's forecast and
/// breaks-on date are per platform range") and how a result names it. The chain is certs/paths/'s leaf under the
/// intermediate Root B signed (scripts/make-path-certs.sh); Root B exists twice with one name and key, valid
/// 2025-01-01 → 2125-01-01 (root-b.pem) and 2020-01-01 → 2021-01-01 (root-b-expired.pem). Android judges an anchor
/// without its dates (conscrypt's TrustManagerImpl), so every version trusts the chain and a pin of Root B's key
/// matches on each: only the root the path ends at, and so the day a new CA breaks the app, differ.
@Suite struct PlatformRangeTests {
    /// API 24 holds the expired Root B, API 25 the renewed one, and API 26 the same store as 25.
    static let histories = StoresCommandTests.historyPreamble + """
        C='\(Certs.directory)/paths'
        git -c init.defaultBranch=main init -q aosp && cd aosp && mkdir files
        cp "$C/root-b-expired.pem" files/1a2b3c4d.0
        commit 2016-08-01 'CA certificates' android-7.0.0_r1
        cp "$C/root-b.pem" files/1a2b3c4d.0
        commit 2016-12-05 'Renew Paths Root B' android-7.1.1_r1
        echo 8.0 > RELEASE
        commit 2017-08-21 'Android 8.0' android-8.0.0_r1
        cd .. && '\(Certs.root)/scripts/build-stores.sh' --out stores --aosp aosp --mozilla none
        """

    static func withStores(_ body: (TemporaryDirectory) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            _ = try ShellPipeline.output(Self.histories, in: directory.path)
            try body(directory)
        }
    }

    /// The days Root B's two certificates end, as `openssl x509 -enddate` prints them: "Jan  1 00:00:00 2021 GMT"
    /// (root-b-expired.pem) and "Jan  1 00:00:00 2125 GMT" (root-b.pem).
    static let expiredRootEnds = "2021-01-01", rootEnds = "2125-01-01"

    @Test func lintGivesEachRangeTheBreaksOnDateOfTheRootItsPathEndsAt() throws {
        try Self.withStores { directory in
            let result = try PinctlProcess.run(
                ["lint", "--chain", "paths/leaf.pem", "--chain", "paths/intermediate-by-b.pem", "--host", "paths.test",
                 "--mode", "publickey", "--pins", "paths/root-b.pem", "--at", TestTime.nowText,
                 "--platform", "android@24-26", "--stores", directory.path("stores")])
            let json = try PinctlProcess.run(
                ["lint", "--chain", "paths/leaf.pem", "--chain", "paths/intermediate-by-b.pem", "--host", "paths.test",
                 "--mode", "publickey", "--pins", "paths/root-b.pem", "--at", TestTime.nowText,
                 "--platform", "android@24-26", "--stores", directory.path("stores"), "--format", "json"])
            let lines = json.stdout.split(separator: "\n").map(String.init)

            // Every pin matches today's chain (no backup pin): an error finding on each range, exit 1.
            #expect(result.status == 1, "\(result)")
            let ranges = result.stdout.components(separatedBy: "afnetworking on ").dropFirst()
            #expect(ranges.count == 2, "\(result)")
            #expect(ranges.first?.hasPrefix("Android 7.0 (API 24) — paths.test\n") == true, "\(result)")
            #expect(ranges.first?.contains("\n  breaks on  \(Self.expiredRootEnds) (new-ca)\n") == true, "\(result)")
            #expect(ranges.last?.hasPrefix("Android 7.1.1–8.0 (API 25–26) — paths.test\n") == true, "\(result)")
            #expect(ranges.last?.contains("\n  breaks on  \(Self.rootEnds) (new-ca)\n") == true, "\(result)")
            #expect(lines.count == 2, "\(json)")
            #expect(lines.first?.contains(#""platform":{"name":"android","versions":"24"}"#) == true, "\(json)")
            #expect(lines.first?.contains(#""breaksOn":"\#(Self.expiredRootEnds)T00:00:00Z""#) == true, "\(json)")
            #expect(lines.last?.contains(#""platform":{"name":"android","versions":"25-26"}"#) == true, "\(json)")
            #expect(lines.last?.contains(#""breaksOn":"\#(Self.rootEnds)T00:00:00Z""#) == true, "\(json)")
        }
    }

    /// check groups as lint does (one verdict everywhere): the same two ranges, each named by its versions' labels
    /// after the app, its library and its versions.
    @Test func checkGroupsTheVersionsAsLintDoesAndNamesThemByTheirLabels() throws {
        try Self.withStores { directory in
            let server = try TLSTestServer(chainPEM: [Certs.path("paths/leaf.pem"),
                                                      Certs.path("paths/intermediate-by-b.pem")],
                                           keyPath: Certs.path("paths/leaf.key"))
            defer { server.stop() }
            let config = try directory.write("pinctl.yaml", text: """
                apps:
                  - name: root-pinned
                    versions: ["3.1", "3.2"]
                    library: afnetworking
                    hosts: [paths.test]
                    policy: { mode: publickey, pins: [\(Certs.path("paths/root-b.pem"))] }
                """)

            let result = try PinctlProcess.run(
                ["check", "127.0.0.1:\(server.port)", "--servername", "paths.test", "--at", TestTime.nowText,
                 "--config", config, "--platform", "android@24-26", "--stores", directory.path("stores")])

            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("""
                  root-pinned (afnetworking; 3.1, 3.2) on Android 7.0 (API 24): TRUSTED — anchor Paths Root B
                  root-pinned (afnetworking; 3.1, 3.2) on Android 7.1.1–8.0 (API 25–26): TRUSTED — anchor Paths Root B; \
                root re-issued: same key, another certificate than on the versions before
                summary: nothing breaks; root-pinned passes

                """), "\(result)")
        }
    }

    /// DESIGN §12's line: "android (nsc; 5.0-5.9) on Android 7.0 (API 24): REJECTED untrusted-chain — ISRG Root X1 is
    /// not in that store", here with the Other Test root, which `StoresCommandTests.histories` adds at API 25.
    @Test func checkWritesDesignsLineForAnAndroidAppOnEachVersion() throws {
        try StoresCommandTests.withStores { directory in
            let server = try TLSTestServer(chainPEM: [Certs.path("other-leaf.pem"),
                                                      Certs.path("other-intermediate-ca.pem")],
                                           keyPath: Certs.path("other-leaf.key"))
            defer { server.stop() }
            try directory.write("network_security_config.xml", text: """
                <?xml version="1.0" encoding="utf-8"?>
                <network-security-config>
                    <base-config><trust-anchors><certificates src="system" /></trust-anchors></base-config>
                </network-security-config>

                """)
            let config = try directory.write("pinctl.yaml", text: """
                apps:
                  - name: android
                    versions: ["5.0-5.9"]
                    library: nsc
                    hosts: [pinning.test]
                    config: network_security_config.xml
                """)

            let result = try PinctlProcess.run(
                ["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test", "--at", TestTime.nowText,
                 "--config", config, "--platform", "android@24-25", "--stores", directory.path("stores")])

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("""
                  android (nsc; 5.0-5.9) on Android 7.0 (API 24): REJECTED untrusted-chain — \
                \(PlatformVerifyTests.otherRoot) is not in that store
                  android (nsc; 5.0-5.9) on Android 7.1.1 (API 25): TRUSTED — anchor Other Test Root CA
                summary: this breaks android (5.0-5.9) on 127.0.0.1:\(server.port)

                """), "\(result)")
        }
    }

    /// Labels that differ in more than the words of their versions (a snapshot file written by hand may hold any
    /// label) are joined whole.
    @Test func aRangeWhoseLabelsDifferInShapeIsNamedByBoth() throws {
        try StoresCommandTests.withStores { directory in
            _ = try ShellPipeline.output(
                "sed -i 's/^label Android 7.1.1 (API 25)$/label Nougat MR1/' stores/android.txt && echo relabelled",
                in: directory.path)

            let result = try PinctlProcess.run(
                ["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test", "--at", TestTime.nowText,
                 "--platform", "android@24-25", "--stores", directory.path("stores")])

            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasSuffix("\n  Android 7.0 (API 24) to Nougat MR1: TRUSTED"
                + " — anchor pinctl Test Root CA\n"), "\(result)")
        }
    }

    /// `--quiet` says each rejection on stderr, with the app and the versions it holds for.
    @Test func quietNamesTheAppAndThePlatformVersionsOfARejection() throws {
        try StoresCommandTests.withStores { directory in
            let config = try directory.write("pinctl.yaml", text: """
                apps: [{name: validating, library: afnetworking, hosts: [pinning.test], policy: {mode: none}}]
                """)

            let result = try PinctlProcess.run(
                ["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test", "--at", TestTime.nowText,
                 "--config", config, "--platform", "ios@18", "--stores", directory.path("stores"), "--quiet"])

            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("(validating) on iOS 18: rejected: "), "\(result)")
        }
    }
}
