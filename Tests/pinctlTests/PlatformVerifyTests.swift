import Foundation
import Testing
import TestSupport

/// `verify --platform` (DESIGN §12) on the snapshots `StoresCommandTests.histories` builds: API 24 has the pinctl
/// Test root, API 25 adds the Other Test root; iOS 17 has both, iOS 18 has the pinctl Test root removed.
@Suite struct PlatformVerifyTests {
    static let otherRoot = "CN=Other Test Root CA,O=Other Test"
    static let testRoot = "CN=pinctl Test Root CA,O=pinctl Test"
    /// What iOS 13 on says of the leaf of certs/ (valid for 100 years) on a chain to a root of its store: more than
    /// Apple's 398 days (PlatformRulesTests has chains that keep Apple's rules).
    static let appleValidity = "REJECTED platform-rule — platform rule: certificate #0 (CN=pinning.test): the leaf "
        + "is valid for 36524 days, longer than the 398 days for a certificate issued from 1 September 2020 "
        + "(HT211025) that Apple allows a chain to a system root (Security SecPolicyCheckValidityPeriodMaximums)"

    /// `pinctl verify` run in certs/ with the snapshots of `directory`.
    func verify(_ arguments: [String], stores directory: TemporaryDirectory) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--host", "pinning.test", "--at", TestTime.nowText,
                               "--stores", directory.path("stores")] + arguments)
    }

    @Test func aRootAbsentAtAPI24AndPresentFromAPI25GivesOneLineForEachAndExitOne() throws {
        try StoresCommandTests.withStores { directory in
            let result = try verify(["--chain", "other-leaf-chain.pem", "--platform", "android@24-25"],
                                    stores: directory)

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.hasSuffix("""
                  Android 7.0 (API 24): REJECTED untrusted-chain — \(Self.otherRoot) is not in that store
                  Android 7.1.1 (API 25): TRUSTED — anchor Other Test Root CA

                """), "\(result)")
        }
    }

    @Test func versionsWithTheSameVerdictAreOneLineAndEachPlatformHasItsOwn() throws {
        try StoresCommandTests.withStores { directory in
            let result = try verify(["--chain", "leaf-chain.pem", "--platform", "android", "--platform", "ios@17-18"],
                                    stores: directory)

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.hasSuffix("""
                  Android 7.0–7.1.1 (API 24–25): TRUSTED — anchor pinctl Test Root CA
                  iOS 17: \(Self.appleValidity)
                  iOS 18: REJECTED untrusted-chain — \(Self.testRoot) is not in that store

                """), "\(result)")
        }
    }

    /// `--ca-file` adds the platform's user roots; it does not replace its store.
    @Test func anExplicitCAFileAnchorIsTrustedBesideTheStoreOnEveryVersion() throws {
        try StoresCommandTests.withStores { directory in
            // An app that targets API 23 or lower: from API 24 only such an app trusts its user's roots.
            let added = try verify(["--chain", "other-leaf-chain.pem", "--platform", "android@24-25",
                                    "--ca-file", "other-root-ca.pem", "--target-sdk", "23"], stores: directory)
            let beside = try verify(["--chain", "leaf-chain.pem", "--platform", "android@24-25",
                                     "--ca-file", "other-root-ca.pem", "--target-sdk", "23"], stores: directory)
            let modern = try verify(["--chain", "other-leaf-chain.pem", "--platform", "android@24-25",
                                     "--ca-file", "other-root-ca.pem"], stores: directory)

            #expect(added.status == 0, "\(added)")
            #expect(added.stdout.hasSuffix("\n  Android 7.0–7.1.1 (API 24–25): TRUSTED — anchor Other Test Root CA\n"),
                    "\(added)")
            // API 25's store has the root itself (StoresCommandTests.histories): an app targeting 24 or later reaches
            // it there, and on API 24 does not trust the user's copy.
            #expect(modern.status == 1, "\(modern)")
            #expect(modern.stdout.contains("  Android 7.0 (API 24): REJECTED untrusted-chain"), "\(modern)")
            #expect(modern.stderr.contains("targets API 23 or lower"), "\(modern)")
            #expect(beside.status == 0, "\(beside)")
            #expect(beside.stdout.hasSuffix("\n  Android 7.0–7.1.1 (API 24–25): TRUSTED"
                + " — anchor pinctl Test Root CA\n"), "\(beside)")
        }
    }

    @Test func eachJSONResultNamesItsPlatformRange() throws {
        try StoresCommandTests.withStores { directory in
            let result = try verify(["--chain", "other-leaf-chain.pem", "--platform", "android@24-25",
                                     "--format", "json"], stores: directory)
            let lines = result.stdout.split(separator: "\n").map(String.init)

            #expect(result.status == 1, "\(result)")
            #expect(lines.count == 2, "\(result)")
            #expect(lines.first?.contains(#""platform":{"name":"android","versions":"24"}"#) == true, "\(result)")
            #expect(lines.first?.contains(#""verdict":"rejected""#) == true, "\(result)")
            #expect(lines.last?.contains(#""platform":{"name":"android","versions":"25"}"#) == true, "\(result)")
            #expect(lines.last?.contains(#""verdict":"trusted""#) == true, "\(result)")
        }
    }

    @Test(arguments: [
        (["--platform", "android@23"],
         "android has no snapshot of version 23 (in \"android@23\"); the snapshots in stores have 24, 25"),
        (["--platform", "android@24-26"], "android has no snapshot of version 26"),
        (["--platform", "windows@10"], "unknown platform \"windows\" in \"windows@10\""),
    ])
    func aVersionWithoutSnapshotIsAnInputErrorNamingTheVersionsThereAre(_ arguments: [String], _ reason: String)
        throws {
        try StoresCommandTests.withStores { directory in
            let result = try PinctlProcess.run(["verify", "--chain", Certs.path("leaf-chain.pem"),
                                                "--at", TestTime.nowText, "--stores", "stores"] + arguments,
                                               in: directory.path)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains(reason), "\(result)")
        }
    }

    /// pinctl.yaml's `platforms:`, as the file's default and per app, choose the versions without --platform.
    @Test func aPolicyFileNamesThePlatformsOfEachApp() throws {
        try StoresCommandTests.withStores { directory in
            let config = directory.path("pinctl.yaml")
            try """
                platforms: [android@24-25]
                apps:
                  - name: android-app
                    library: afnetworking
                    hosts: [pinning.test]
                    policy: { mode: none }
                  - name: ios-app
                    library: afnetworking
                    hosts: [pinning.test]
                    policy: { mode: none }
                    platforms: [ios@18]
                """.write(toFile: config, atomically: true, encoding: .utf8)
            try "apps: [{name: a, library: afnetworking, policy: {mode: none}, platforms: windows@10}]\n"
                .write(toFile: directory.path("bad.yaml"), atomically: true, encoding: .utf8)

            let result = try verify(["--chain", "leaf-chain.pem", "--config", config], stores: directory)
            let bad = try verify(["--chain", "leaf-chain.pem", "--config", directory.path("bad.yaml")],
                                 stores: directory)

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("""
                  android-app (afnetworking) on Android 7.0–7.1.1 (API 24–25): TRUSTED — anchor pinctl Test Root CA
                  ios-app (afnetworking) on iOS 18: REJECTED untrusted-chain — \(Self.testRoot) is not in that store

                """), "\(result)")
            #expect(bad.status == 2, "\(bad)")
            #expect(bad.stderr.contains("bad.yaml:1"), "\(bad)")
            #expect(bad.stderr.contains("unknown platform \"windows\""), "\(bad)")
        }
    }

    /// lint judges as verify does: a result per platform range, each with its forecast and findings.
    @Test func lintGivesEachPlatformRangeItsOwnResult() throws {
        try StoresCommandTests.withStores { directory in
            let result = try PinctlProcess.run(
                ["lint", "--chain", "other-leaf-chain.pem", "--host", "pinning.test", "--at", TestTime.nowText,
                 "--platform", "android@24-25", "--stores", directory.path("stores"), "--format", "json"])
            let lines = result.stdout.split(separator: "\n").map(String.init)

            #expect(result.status == 1, "\(result)")
            #expect(lines.count == 2, "\(result)")
            #expect(lines.first?.contains(#""platform":{"name":"android","versions":"24"}"#) == true, "\(result)")
            #expect(lines.first?.contains("rejected-today") == true, "\(result)")
            #expect(lines.last?.contains(#""platform":{"name":"android","versions":"25"}"#) == true, "\(result)")
            #expect(lines.last?.contains("rejected-today") == false, "\(result)")
        }
    }

    /// Without --platform the system store (or --ca-file in its place) judges, as before, even with snapshots at
    /// hand: no platform is named. (A guard: it passes on the code before --platform too.)
    @Test func withoutPlatformTheOutputIsUnchanged() throws {
        try StoresCommandTests.withStores { directory in
            let result = try PinctlProcess.run(
                ["verify", "--host", "pinning.test", "--at", TestTime.nowText, "--chain", "other-leaf-chain.pem",
                 "--ca-file", "root-ca.pem"], environment: ["PINCTL_STORES": directory.path("stores")])

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("REJECTED  mode none"), "\(result)")
            #expect(result.stdout.contains("anchors: the CA file root-ca.pem"), "\(result)")
            #expect(!result.stdout.contains("android"), "\(result)")
        }
    }
}
