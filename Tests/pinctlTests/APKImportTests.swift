import Foundation
import Testing
import TestSupport

/// `config import app.apk` and a policy file's `build: app.apk` (#35, DESIGN §14) through the built pinctl, on
/// APKs Debian's Android tools build in the test (scripts/make-apk.sh): the manifest's levels and version, its
/// Network Security Configuration resolved through resources.arsc, `@raw/` anchors, `android:debuggable`.
@Suite struct APKImportTests {
    static let manifest = """
        <?xml version="1.0" encoding="utf-8"?>
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop" \
        android:versionName="5.0">
            <uses-sdk android:minSdkVersion="MINSDK" android:targetSdkVersion="34"/>
            <application android:networkSecurityConfig="@xml/network_security_config" DEBUGGABLE/>
        </manifest>
        """

    /// An APK of `config` (the network_security_config.xml) and `raw` files, built in `directory` as `name`.apk.
    static func apk(_ name: String, in directory: TemporaryDirectory, config: String, raw: [String: String] = [:],
                    debuggable: Bool = false, minSdk: Int = 21) throws -> String {
        let tree = directory.path(name)
        try FileManager.default.createDirectory(atPath: tree + "/res/xml", withIntermediateDirectories: true)
        let manifest = Self.manifest.replacingOccurrences(
            of: "DEBUGGABLE", with: debuggable ? "android:debuggable=\"true\"" : "")
            .replacingOccurrences(of: "MINSDK", with: String(minSdk))
        try manifest.write(toFile: tree + "/AndroidManifest.xml", atomically: true, encoding: .utf8)
        try config.write(toFile: tree + "/res/xml/network_security_config.xml", atomically: true, encoding: .utf8)
        if !raw.isEmpty {
            try FileManager.default.createDirectory(atPath: tree + "/res/raw", withIntermediateDirectories: true)
            for (file, source) in raw { try FileManager.default.copyItem(atPath: source, toPath: tree + "/res/raw/" + file) }
        }
        let path = directory.path(name + ".apk")
        let made = try Subprocess.run(Certs.root + "/scripts/make-apk.sh", [tree, path], in: Certs.root, timeout: 120)
        try #require(made.status == 0, "\(made)")
        return path
    }

    /// A policy file of what `config import` prints for `apk`.
    static func policyFile(_ apk: String, in directory: TemporaryDirectory, hosts: [String] = []) throws -> String {
        let imported = try PinctlProcess.run(["config", "import", apk, "--name", "shop"] + hosts.flatMap { ["--host", $0] })
        try #require(imported.status == 0, "\(imported)")
        return try directory.write(Path(apk).stem + ".yaml", text: "apps:\n" + imported.stdout)
    }

    /// amazon.com's chain pinned to keys it does not hold.
    static let wrongPins = """
        <?xml version="1.0" encoding="utf-8"?>
        <network-security-config>
            <domain-config>
                <domain includeSubdomains="true">amazon.com</domain>
                <pin-set>
                    <pin digest="SHA-256">r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=</pin>
                    <pin digest="SHA-256">YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=</pin>
                </pin-set>
            </domain-config>
        </network-security-config>
        """

    @Test func anAPKGivesItsNSCWithItsVersionAndLevels() throws {
        try TemporaryDirectory.with { directory in
            let apk = try Self.apk("shop", in: directory, config: Self.wrongPins)
            let result = try PinctlProcess.run(["config", "import", apk, "--name", "shop"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == """
                  - name: shop
                    versions: [5.0]
                    library: nsc
                    minSdk: 21
                    targetSdk: 34
                    build: \(apk)

                """, "\(result)")
            // An APK's code pins (OkHttp in the DEX) are read (APKOkHttpImportTests): nothing is left to warn of.
            #expect(result.stderr.isEmpty, "\(result)")
            let other = try PinctlProcess.run(["config", "import", apk, "--library", "trustkit"])
            #expect(other.status == 2, "\(other)")
            #expect(other.stderr.contains("shop.apk!AndroidManifest.xml: configures no TrustKit pinning"), "\(other)")
        }
    }

    /// minSdk 21 from the manifest: judged from API 21 on the team's snapshots (DESIGN §12), pinned only where NSC
    /// exists; the pins named by the archive entry and line aapt kept.
    @Test func aMinSdk21AppIsPinnedOnlyFromAPI24AndItsPinsAreNamedByEntry() throws {
        try TemporaryDirectory.with { directory in
            let apk = try Self.apk("shop", in: directory, config: Self.wrongPins)
            let file = try Self.policyFile(apk, in: directory)
            let chain = try SharedData.chain("amazon.com.pem")
            let verify = try PinctlProcess.run(["verify", "--config", file, "--chain", chain, "--host", "amazon.com",
                                                "--stores", try SharedData.stores(), "--at", "2026-03-01T00:00:00Z"])
            #expect(verify.status == 1, "\(verify)")
            #expect(verify.stdout.contains("shop (nsc; 5.0) on Android 5.0–6.0 (API 21–23): TRUSTED — anchor DigiCert "
                + "Global Root G2; not pinned on these versions: the Network Security Configuration exists from API 24"),
                    "\(verify)")
            #expect(verify.stdout.contains("shop (nsc; 5.0) on Android 7.0–17 (API 24–37): REJECTED "
                + "public-key-not-pinned"), "\(verify)")

            let lint = try PinctlProcess.run(["lint", "--config", file, "--chain", chain, "--host", "amazon.com",
                                              "--at", "2026-03-01T00:00:00Z"])
            #expect(lint.stdout.contains("(\(apk)!res/xml/network_security_config.xml:6 (<pin>))"), "\(lint)")
        }
    }

    /// The manifest's `android:debuggable` decides whether `debug-overrides` apply: the test root trusted only there.
    @Test func theManifestsDebuggableDecidesDebugOverrides() throws {
        try TemporaryDirectory.with { directory in
            let config = """
                <?xml version="1.0" encoding="utf-8"?>
                <network-security-config>
                    <debug-overrides>
                        <trust-anchors><certificates src="@raw/debug_ca"/></trust-anchors>
                    </debug-overrides>
                </network-security-config>
                """
            let raw = ["debug_ca.pem": Certs.path("root-ca.pem")]
            func verify(_ apk: String) throws -> PinctlProcess.Result {
                try PinctlProcess.run(["verify", "--config", try Self.policyFile(apk, in: directory,
                                                                                 hosts: ["pinning.test"]), "--chain",
                                       Certs.path("leaf-fullchain.pem"), "--host", "pinning.test", "--at",
                                       TestTime.nowText])
            }
            // minSdk 24: pinned wherever it installs, whether or not snapshots are found (an installed package has them).
            let release = try verify(try Self.apk("release", in: directory, config: config, raw: raw, minSdk: 24))
            #expect(release.status == 1, "\(release)")
            // One line without snapshots; one per range where an installed package's are found.
            #expect(release.stdout.contains(/REJECTED +untrusted-chain/), "\(release)")
            let debug = try verify(try Self.apk("debug", in: directory, config: config, raw: raw, debuggable: true,
                                                minSdk: 24))
            #expect(debug.status == 0, "\(debug)")
            #expect(debug.stdout.contains("TRUSTED"), "\(debug)")
        }
    }

    /// What pinctl cannot read as an APK is refused, naming the archive and the entry.
    @Test func bundlesAndDamagedPackagesAreRefused() throws {
        try TemporaryDirectory.with { directory in
            let made = try Subprocess.run("/usr/bin/env", ["python3", "-c", """
                import sys, zipfile
                with zipfile.ZipFile(sys.argv[1] + '/bundle.apk', 'w') as z:
                    z.writestr('BundleConfig.pb', b'')
                    z.writestr('base/manifest/AndroidManifest.xml', b'')
                with zipfile.ZipFile(sys.argv[1] + '/broken.apk', 'w') as z:
                    z.writestr('AndroidManifest.xml', b'<manifest/>')
                """, directory.path], in: directory.path)
            try #require(made.status == 0, "\(made)")
            let bundle = try PinctlProcess.run(["config", "import", directory.path("bundle.apk")])
            #expect(bundle.status == 2, "\(bundle)")
            #expect(bundle.stderr.contains("bundle.apk: is an Android App Bundle (AAB)"), "\(bundle)")
            let broken = try PinctlProcess.run(["config", "import", directory.path("broken.apk")])
            #expect(broken.status == 2, "\(broken)")
            #expect(broken.stderr.contains("broken.apk!AndroidManifest.xml: at byte 0: not Android binary XML"),
                    "\(broken)")
            let aab = try directory.write("app.aab", text: "")
            let refused = try PinctlProcess.run(["config", "import", aab])
            #expect(refused.status == 2 && refused.stderr.contains("an Android App Bundle (AAB)"), "\(refused)")

            let apk = try Self.apk("shop", in: directory, config: Self.wrongPins)
            let file = try directory.write("debuggable.yaml", text: """
                apps:
                  - name: shop
                    library: nsc
                    build: \(apk)
                    debuggable: true
                """)
            let setting = try PinctlProcess.run(["verify", "--config", file, "--chain", Certs.path("leaf-fullchain.pem"),
                                                 "--host", "amazon.com"])
            #expect(setting.status == 2, "\(setting)")
            #expect(setting.stderr.contains("debuggable comes from the build's manifest"), "\(setting)")
        }
    }
}

/// A file name's stem, for names derived from it.
private struct Path {
    let path: String
    init(_ path: String) { self.path = path }
    var stem: String { (URL(fileURLWithPath: path).lastPathComponent as NSString).deletingPathExtension }
}
