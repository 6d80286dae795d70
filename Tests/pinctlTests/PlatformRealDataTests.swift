import Foundation
import Testing
import TestSupport

/// Facts about real devices, judged on the team's snapshot of their stores (`../shared/stores`, built from public
/// sources by scripts/build-stores.sh; its provenance in `../shared/stores.md`) and on chains real servers presented
/// (`../shared/chains`). The data may not be in the repository (DESIGN §12), so it is read beside it; a checkout
/// without it fails here, saying so, rather than passing without having judged anything. Each fact names its source.
@Suite struct PlatformRealDataTests {
    /// intermediate-ca.pem's key, from certs/libraries/spki-pins.txt (openssl's).
    static let intermediatePin = "sha256/bbv+fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y="

    func verify(_ arguments: [String]) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--stores", SharedData.stores()] + arguments, in: Certs.root)
    }

    /// Let's Encrypt's "Certificate Compatibility" page (letsencrypt.org/docs/certificate-compatibility/): ISRG Root X1
    /// is trusted by "Android >= 7.1.1"; AOSP added it to system/ca-certificates in the 7.1.1 update (../shared/
    /// stores.md, API 25: "ISRG Root X1 added"; API 24: "no ISRG Root X1").
    @Test func isrgRootX1IsMissingOnAPI24AndTrustedFromAPI25() throws {
        let chain = try SharedData.chain("stackoverflow.com.pem")
        let result = try verify(["--chain", chain, "--host", "stackoverflow.com", "--at", "2026-03-01T00:00:00Z",
                                 "--platform", "android@21-26"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains(
            "Android 5.0–7.0 (API 21–24): REJECTED untrusted-chain — CN=ISRG Root X1,O=Internet Security Research "
                + "Group,C=US is not in that store"), "\(result)")
        #expect(result.stdout.contains("Android 7.1.1–8.0 (API 25–26): TRUSTED — anchor ISRG Root X1"),
                "\(result)")
    }

    /// The same chain judged on all 36 Android versions at once and on each alone agrees version by version: versions
    /// judged once for many (DESIGN §12, "versions at the cost of one") must give what each gives alone.
    @Test func judgingEveryVersionAtOnceAgreesWithEachVersionAlone() throws {
        let chain = try SharedData.chain("google.com.pem")
        func verdicts(_ platform: String) throws -> [String] {
            let result = try verify(["--chain", chain, "--host", "google.com", "--at", "2026-02-10T00:00:00Z",
                                     "--platform", platform, "--format", "json"])
            return result.stdout.split(separator: "\n").map { line in
                let trusted = line.contains(#""trusted":true"#) ? "trusted" : "rejected"
                let versions = line.components(separatedBy: #""versions":""#).dropFirst().first?
                    .prefix { $0 != "\"" } ?? ""
                return "\(versions) \(trusted)"
            }
        }
        let all = try verdicts("android")
        // Expand "25-33" into its versions using the ranges' own ends against the single runs.
        var alone: [String: String] = [:]
        for version in [14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37] {
            let one = try verdicts("android@\(version)")
            #expect(one.count == 1, "android@\(version): \(one)")
            alone["\(version)"] = one.first.map { String($0.split(separator: " ")[1]) }
        }
        for range in all {
            let parts = range.split(separator: " ")
            let ends = parts[0].split(separator: "-").compactMap { Int($0) }
            let verdict = String(parts[1])
            for (version, aloneVerdict) in alone {
                guard let number = Int(version), number >= ends[0], number <= (ends.last ?? ends[0]) else { continue }
                #expect(aloneVerdict == verdict, "android@\(version): alone \(aloneVerdict), in \(range)")
            }
        }
        #expect(all.count >= 2, "\(all)")
    }

    /// Android 14 removed TrustCor's roots and E-Tugra's after their 2023 distrust (../shared/stores.md, "33→34
    /// removes 24 roots, among them TrustCor ECA-1, RootCert CA-1 and CA-2 and E-Tugra").
    @Test func trustCorAndETugraAreRemovedBetweenAPI33And34() throws {
        let result = try PinctlProcess.run(["stores", "diff", "android@33", "android@34",
                                            "--stores", SharedData.stores()])
        #expect(result.status == 0, "\(result)")
        let removed = result.stdout.components(separatedBy: ", not in android@33").first ?? ""
        #expect(removed.contains("CN=TrustCor ECA-1"), "\(result)")
        #expect(removed.contains("CN=TrustCor RootCert CA-1"), "\(result)")
        #expect(removed.contains("CN=E-Tugra"), "\(result)")
    }

    /// Android 14 ships GTS Root R1–R4 re-issued for the same keys (../shared/stores.md: "GTS Root R1–R4 and
    /// GlobalSign ECC R4 are on both sides of the diff because Android 14 ships re-issued certificates for the same
    /// keys"): a re-issue, not a removal and an addition.
    @Test func gtsRootsAreReissuedNotRemovedBetweenAPI33And34() throws {
        let result = try PinctlProcess.run(["stores", "diff", "android@33", "android@34",
                                            "--stores", SharedData.stores()])
        #expect(result.status == 0, "\(result)")
        let parts = result.stdout.components(separatedBy: "re-issued between android@33 and android@34")
        #expect(parts.count == 2, "\(result)")
        let changed = parts.first ?? ""
        let reissued = parts.last ?? ""
        for name in ["GTS Root R1", "GTS Root R2", "GTS Root R3", "GTS Root R4"] {
            #expect(!changed.contains("CN=\(name),"), "\(name) listed as removed or added: \(result)")
            #expect(reissued.contains("CN=\(name),"), "\(name) not listed as re-issued: \(result)")
        }
    }

    /// A chain to GTS Root R1 on API 33 and 34: both trust it, by the key's old and re-issued certificate; the result
    /// says so rather than showing one root for both.
    @Test func aRangeTrustedByTheReissuedRootSaysWhatDiffers() throws {
        let chain = try SharedData.chain("google.com.pem")
        let result = try verify(["--chain", chain, "--host", "google.com", "--at", "2026-02-10T00:00:00Z",
                                 "--platform", "android@33-34"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("(API 33): TRUSTED — anchor GTS Root R1"), "\(result)")
        #expect(result.stdout.contains(
            "(API 34): TRUSTED — anchor GTS Root R1; root re-issued: same key, another certificate"),
                "\(result)")
    }

    /// Apple removed TrustCor's roots from its trust store after iOS 18 (../shared/stores.md: "The TrustCor roots
    /// are in certificates/roots up to 55313.0.8 (iOS 18) and missing in 55349.0.11 (iOS 26)"), whose trust store
    /// version is 2025072000.
    @Test func appleRemovedTrustCorInTheTrustStoreOfIOS26() throws {
        let result = try PinctlProcess.run(["stores", "diff", "ios@18", "ios@26",
                                            "--stores", SharedData.stores()])
        #expect(result.status == 0, "\(result)")
        let removed = result.stdout.components(separatedBy: ", not in ios@18").first ?? ""
        #expect(removed.contains("CN=TrustCor ECA-1"), "\(result)")
        // Trust store 2025072000 (its date, 2025-07-20, is the snapshot's) is the one without them.
        let list = try PinctlProcess.run(["stores", "--stores", SharedData.stores()])
        #expect(list.stdout.contains("ios@26            2025-07-20"), "\(list)")
    }

    /// An NSC app whose pins reject a chain that ends at a root its user added (`--ca-file`): Android 5.0–6.0 never
    /// read the configuration (developer.android.com/reference/android/R.attr#networkSecurityConfig: "Added in API
    /// level 24") and trust the user's CAs, so the app connects unpinned; from API 24 the pins apply (and an app
    /// targeting 24 or later no longer trusts user CAs: NetworkSecurityConfig.getDefaultBuilder).
    @Test func nscPinsDoNotExistBeforeAPI24() throws {
        let result = try verify(["--library", "nsc", "--nsc-config",
                                 "Tests/Fixtures/nsc/res/xml/network_security_config.xml",
                                 "--chain", "certs/libraries/leaf-other-intermediate-chain.pem",
                                 "--host", "api.example.com", "--ca-file", "certs/libraries/root-ca.pem",
                                 "--at", TestTime.nowText, "--platform", "android@21-25"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("Android 5.0–6.0 (API 21–23): TRUSTED — anchor Libraries Root CA; not pinned on "
            + "these versions: the Network Security Configuration exists from API 24 (Android 7.0)"), "\(result)")
        #expect(result.stdout.contains("(API 24–25): REJECTED"), "\(result)")
        let json = try verify(["--library", "nsc", "--nsc-config",
                               "Tests/Fixtures/nsc/res/xml/network_security_config.xml",
                               "--chain", "certs/libraries/leaf-other-intermediate-chain.pem",
                               "--host", "api.example.com", "--ca-file", "certs/libraries/root-ca.pem",
                               "--at", TestTime.nowText, "--platform", "android@23", "--format", "json"])
        #expect(json.stdout.contains("not pinned on these versions: the Network Security Configuration exists from "
            + "API 24 (Android 7.0)"), "\(json)")
    }

    /// The reverse, which would be a false "safe": an app that trusts its private CA only through `@raw` has no such
    /// anchor before API 24, and fails there.
    @Test func rawAnchorsDoNotExistBeforeAPI24() throws {
        let result = try verify(["--library", "nsc", "--nsc-config", "Tests/Fixtures/nsc/res/xml/raw_anchors.xml",
                                 "--chain", "certs/libraries/leaf-other-root-chain.pem", "--host", "www.example.com",
                                 "--at", TestTime.nowText, "--platform", "android@21-25"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("Android 5.0–6.0 (API 21–23): REJECTED untrusted-chain"), "\(result)")
        #expect(result.stdout.contains("(API 24–25): TRUSTED"), "\(result)")
    }

    /// A policy file's app: `minSdk` without `platforms:` judges it from that level to the newest snapshot; the roots
    /// the file gives stand for its user's CAs, which Android trusts below API 24 and from 24 only for an app with
    /// `targetSdk: 23` or lower (NetworkSecurityConfig.getDefaultBuilder: "if (info.targetSdkVersion <=
    /// Build.VERSION_CODES.M …)" adds the user store).
    @Test func minSdkChoosesTheVersionsAndTargetSdkTheUsersCAs() throws {
        try TemporaryDirectory.with { directory in
            func config(targetSdk: Int) throws -> String {
                try directory.write("pinctl-\(targetSdk).yaml", text: """
                    anchors: { ca-files: [\(Certs.path("libraries/root-ca.pem"))] }
                    apps:
                      - name: shop
                        library: okhttp
                        minSdk: 23
                        targetSdk: \(targetSdk)
                        hosts: [api.example.com]
                        policy: { pins: { api.example.com: [\(Self.intermediatePin)] } }
                    """)
            }
            let modern = try verify(["--config", config(targetSdk: 34), "--chain",
                                     "certs/libraries/leaf-chain.pem", "--host", "api.example.com",
                                     "--at", TestTime.nowText])
            #expect(modern.status == 1, "\(modern)")
            #expect(modern.stdout.contains("shop (okhttp) on Android 6.0 (API 23): TRUSTED"), "\(modern)")
            #expect(modern.stdout.contains("shop (okhttp) on Android 7.0–17 (API 24–37): REJECTED untrusted-chain"),
                    "\(modern)")
            #expect(modern.stderr.contains("targets API 23 or lower"), "\(modern)")
            let legacy = try verify(["--config", config(targetSdk: 23), "--chain",
                                     "certs/libraries/leaf-chain.pem", "--host", "api.example.com",
                                     "--at", TestTime.nowText])
            #expect(legacy.status == 0, "\(legacy)")
            #expect(legacy.stdout.contains("shop (okhttp) on Android 6.0–17 (API 23–37): TRUSTED"), "\(legacy)")
        }
    }

    /// NSPinnedDomains exists from iOS 14 and macOS 11 (Apple's documentation of the key: "iOS 14.0+ … macOS 11.0+";
    /// Security's parseNSPinnedDomains first ships in Security-59754): an app whose CA identity is no key of
    /// stackoverflow.com's chain connects unpinned on iOS 13 and macOS 10.15 and is refused from iOS 14 and macOS 11.
    @Test func nsPinnedDomainsDoNotExistBeforeIOS14AndMacOS11() throws {
        let chain = try SharedData.chain("stackoverflow.com.pem")
        let result = try verify(["--chain", chain, "--host", "stackoverflow.com", "--at", "2026-03-01T00:00:00Z",
                                 "--platform", "ios@13-14", "--platform", "macos@10.15-11", "--library", "ats",
                                 "--pin", "sha256/QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("  iOS 13: TRUSTED — anchor ISRG Root X1; not pinned on these versions: "
            + "NSPinnedDomains exists from iOS 14"), "\(result)")
        #expect(result.stdout.contains("  iOS 14: REJECTED public-key-not-pinned"), "\(result)")
        #expect(result.stdout.contains("  macOS 10.15: TRUSTED"), "\(result)")
        #expect(result.stdout.contains("  macOS 11: REJECTED public-key-not-pinned"), "\(result)")
        let json = try verify(["--chain", chain, "--host", "stackoverflow.com", "--at", "2026-03-01T00:00:00Z",
                               "--platform", "ios@13", "--library", "ats", "--format", "json",
                               "--pin", "sha256/QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="])
        #expect(json.stdout.contains("not pinned on these versions: NSPinnedDomains exists from iOS 14"), "\(json)")
    }
}
