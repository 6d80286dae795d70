import Foundation
import Testing
import TestSupport

/// The rules of a platform version beyond its store (DESIGN §12), on the chains of certs/platforms/
/// (scripts/make-platform-certs.sh), which OpenSSL verifies: Apple's TLS server policy from iOS 13 (Apple HT210176,
/// HT211025, and Security's SecPolicyServer.c), and Android's validation, which never checks a trust anchor's dates
/// (conscrypt's TrustManagerImpl hands the anchor to PKIXParameters as a TrustAnchor).
@Suite struct PlatformRulesTests {
    /// AOSP API 24 and Apple's trust store of iOS 17 hold the Platforms root and the expired one; iOS 18's has the
    /// Platforms root moved to certificates/removed, so that `--ca-file root.pem` makes it a user root there.
    static let histories = StoresCommandTests.historyPreamble + """
        C='\(Certs.directory)/platforms'
        git -c init.defaultBranch=main init -q aosp && cd aosp && mkdir files
        cp "$C/root.pem" files/1a2b3c4d.0 && cp "$C/expired-root.pem" files/5e6f7a8b.0
        commit 2016-08-01 'CA certificates' android-7.0.0_r1
        cd .. && git -c init.defaultBranch=main init -q apple && cd apple
        mkdir -p certificates/roots certificates/removed config
        cp "$C/root.pem" certificates/roots/ROOT.cer && cp "$C/expired-root.pem" certificates/roots/EXPIRED.cer
        ctlist
        plist 2023071300 > config/AssetVersion.plist
        commit 2023-09-18 'trust store 2023071300' security_certificates-55291
        git mv certificates/roots/ROOT.cer certificates/removed/ROOT.cer
        plist 2024051500 > config/AssetVersion.plist
        commit 2024-09-16 'trust store 2024051500' security_certificates-55313.0.8
        cd .. && '\(Certs.root)/scripts/build-stores.sh' --out stores --aosp aosp --apple apple --mozilla none
        """

    static func withStores(_ body: (TemporaryDirectory) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            _ = try ShellPipeline.output(Self.histories, in: directory.path)
            try body(directory)
        }
    }

    /// `pinctl verify` of a chain of certs/platforms/ for platforms.test at the tests' time.
    func verify(_ chain: String, _ arguments: [String], stores directory: TemporaryDirectory) throws
        -> PinctlProcess.Result
    {
        try PinctlProcess.run(["verify", "--chain", "platforms/\(chain)", "--host", "platforms.test",
                               "--at", TestTime.nowText, "--stores", directory.path("stores")] + arguments)
    }

    @Test func aLeafWithoutServerAuthIsRefusedFromIOS13OnASystemRootAndTrustedOnAndroid() throws {
        try Self.withStores { directory in
            let result = try verify("leaf-no-eku-chain.pem", ["--platform", "android@24", "--platform", "ios@17"],
                                    stores: directory)
            let json = try verify("leaf-no-eku-chain.pem", ["--platform", "ios@17", "--format", "json"],
                                  stores: directory)

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("  Android 7.0 (API 24): TRUSTED — anchor Platforms Root CA\n"), "\(result)")
            #expect(result.stdout.contains("  iOS 17: REJECTED platform-rule"), "\(result)")
            #expect(result.stdout.contains("the leaf has no extended key usage id-kp-serverAuth "
                + "(1.3.6.1.5.5.7.3.1), which every chain to a system root must carry (Apple's TLS server policy, "
                + "HT210176; Security SecPolicyCheckServerAuthEKU)"), "\(result)")
            #expect(json.stdout.contains(#""code":"platform-rule""#), "\(json)")
        }
    }

    /// Security's SecPolicyCheckServerAuthEKU: "skip user/admin-anchored chains".
    @Test func aLeafWithoutServerAuthIsTrustedOnAUserRootButNotWhenTheRootIsTheStoresToo() throws {
        try Self.withStores { directory in
            let user = try verify("leaf-no-eku-chain.pem", ["--platform", "ios@18", "--ca-file", "platforms/root.pem"],
                                  stores: directory)
            let system = try verify("leaf-no-eku-chain.pem",
                                    ["--platform", "ios@17", "--ca-file", "platforms/root.pem"], stores: directory)

            #expect(user.status == 0, "\(user)")
            #expect(user.stdout.hasSuffix("  iOS 18: TRUSTED — anchor Platforms Root CA\n"), "\(user)")
            #expect(system.status == 1, "\(system)")
            #expect(system.stdout.contains("  iOS 17: REJECTED platform-rule"), "\(system)")
        }
    }

    /// SecPolicyCheckServerAuthEKU: "All other anchor types must be compliant if issued on or after 1 July 2019":
    /// Alamofire's pinned certificates, with self-signed certificates accepted, are the anchors the app sets.
    @Test func aLeafWithoutServerAuthIsRefusedOnAnAnchorTheAppSets() throws {
        try Self.withStores { directory in
            let pinned = ["--platform", "ios@18", "--library", "alamofire", "--evaluator", "pinned-certificates",
                          "--pins", "platforms/root.pem", "--accept-self-signed-certificates"]
            let refused = try verify("leaf-no-eku-chain.pem", pinned, stores: directory)
            let trusted = try verify("leaf-chain.pem", pinned, stores: directory)

            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stdout.contains("the leaf, issued after 1 July 2019, has no extended key usage "
                + "id-kp-serverAuth"), "\(refused)")
            #expect(trusted.status == 0, "\(trusted)")
        }
    }

    @Test func withoutAPlatformNoPlatformRuleApplies() throws {
        let result = try PinctlProcess.run(["verify", "--chain", "platforms/leaf-no-eku-chain.pem", "--host",
                                            "platforms.test", "--at", TestTime.nowText, "--ca-file",
                                            "platforms/root.pem"])

        #expect(result.status == 0, "\(result)")
    }

    /// Security's SecPolicyCheckSystemTrustValidityPeriodMaximums (398 days from 1 September 2020, HT211025) and
    /// SecPolicyCheckOtherTrustValidityPeriodMaximums (825 days from 1 July 2019, HT210176).
    @Test func validityMaximumsAre398DaysOnASystemRootAnd825OnAUserRoot() throws {
        try Self.withStores { directory in
            let system = try verify("leaf-730-days-chain.pem", ["--platform", "ios@17", "--platform", "android@24"],
                                    stores: directory)
            let user = try verify("leaf-730-days-chain.pem",
                                  ["--platform", "ios@18", "--ca-file", "platforms/root.pem"], stores: directory)
            let tooLong = try verify("leaf-900-days-chain.pem",
                                     ["--platform", "ios@18", "--ca-file", "platforms/root.pem"], stores: directory)

            #expect(system.status == 1, "\(system)")
            #expect(system.stdout.contains("the leaf is valid for 730 days, longer than the 398 days for a "
                + "certificate issued from 1 September 2020 (HT211025) that Apple allows a chain to a system root"),
                    "\(system)")
            #expect(system.stdout.contains("  Android 7.0 (API 24): TRUSTED — anchor Platforms Root CA\n"), "\(system)")
            #expect(user.status == 0, "\(user)")
            #expect(tooLong.status == 1, "\(tooLong)")
            #expect(tooLong.stdout.contains("the leaf is valid for 900 days, longer than the 825 days for a "
                + "certificate issued after 1 July 2019 (HT210176) that Apple allows a chain to any root"),
                    "\(tooLong)")
        }
    }

    /// Security's SecPolicyAddStrongKeySizeOptions: "EC key sizes are P-256 or larger".
    @Test func anECKeyUnder256BitsIsRefusedOnIOS() throws {
        try Self.withStores { directory in
            let result = try verify("leaf-p224-chain.pem", ["--platform", "ios@17", "--platform", "android@24"],
                                    stores: directory)

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("certificate #0 has an EC key of 224 bits; Apple's TLS server "
                + "policy asks P-256 or larger"), "\(result)")
            #expect(result.stdout.contains("  Android 7.0 (API 24): TRUSTED — anchor Platforms Root CA\n"), "\(result)")
        }
    }

    /// SecPolicyCheckServerAuthEKU: "if any subCA cert has an EKU, it must have the server auth EKU"; Android checks
    /// the EKU of the leaf only (TrustManagerImpl's ExtendedKeyUsagePKIXCertPathChecker).
    @Test func anIntermediateForClientsOnlyIsRefusedOnIOSAndNotOnAndroid() throws {
        try Self.withStores { directory in
            let result = try verify("leaf-under-client-ca-chain.pem",
                                    ["--platform", "ios@17", "--platform", "android@24"], stores: directory)

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("certificate #1, an intermediate, limits its extended key usage"),
                    "\(result)")
            #expect(result.stdout.contains("  Android 7.0 (API 24): TRUSTED — anchor Platforms Root CA\n"), "\(result)")
        }
    }

    @Test func anExpiredRootInTheStoreStillAnchorsOnAndroidOnly() throws {
        try Self.withStores { directory in
            let result = try verify("leaf-under-expired-root-chain.pem",
                                    ["--platform", "android@24", "--platform", "ios@17"], stores: directory)

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("  Android 7.0 (API 24): TRUSTED"
                + " — anchor Platforms Expired Root CA\n"), "\(result)")
            #expect(result.stdout.contains("  iOS 17: REJECTED expired"), "\(result)")
        }
    }
}
