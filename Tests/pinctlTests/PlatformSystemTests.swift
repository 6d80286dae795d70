import Foundation
import Testing
import TestSupport

/// `system` (DESIGN §12's fifth name: OpenSSL's default store, as without `--platform`): named alone it judges as a
/// run without platforms, reading no snapshot; beside a snapshot platform it is refused, as one run cannot yet give
/// both kinds of result.
@Suite struct PlatformSystemTests {
    static let verify = ["verify", "--chain", "leaf-chain.pem", "--ca-file", "root-ca.pem", "--host", "pinning.test",
                         "--at", TestTime.nowText]
    /// No snapshot anywhere: a run that looked for one would be an input error (exit 2).
    static let noStores = ["PINCTL_STORES": "/nonexistent/stores"]

    @Test func systemAloneJudgesAsWithoutAPlatformAndReadsNoSnapshot() throws {
        let plain = try PinctlProcess.run(Self.verify, environment: Self.noStores)
        let system = try PinctlProcess.run(Self.verify + ["--platform", "system"], environment: Self.noStores)
        let rejected = try PinctlProcess.run(
            ["verify", "--chain", "leaf-chain.pem", "--ca-file", "other-root-ca.pem", "--host", "pinning.test",
             "--at", TestTime.nowText, "--platform", "system"], environment: Self.noStores)

        #expect(system.status == 0, "\(system)")
        #expect(system.stdout.hasSuffix("TRUSTED  mode none, 0 pin(s)\n"), "\(system)")
        #expect(system.stdout == plain.stdout && system.stderr == plain.stderr, "\(system)\n\(plain)")
        // The anchors given still decide: another root rejects the chain, as without a platform.
        #expect(rejected.status == 1, "\(rejected)")
    }

    @Test(arguments: [
        (["--platform", "system", "--platform", "android@24"], "--platform: system (OpenSSL's default store, as "
            + "without a platform) cannot be judged beside android@24 in one run: judge it in a run of its own"),
        (["--platform", "system@3"], "\"system@3\": system is OpenSSL's default store, which has no versions: name "
            + "it alone, as `system`"),
        (["--platform", "windows"], "unknown platform \"windows\" in \"windows\": expected one of android, ios, "
            + "macos, mozilla, system"),
    ])
    func systemBesideASnapshotOrWithAVersionIsAnInputError(_ arguments: [String], _ reason: String) throws {
        let result = try PinctlProcess.run(Self.verify + arguments, environment: Self.noStores)

        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(reason), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    static func policy(_ apps: String) -> String {
        """
        anchors: { ca-files: [\(Certs.path("root-ca.pem"))] }
        apps:
        \(apps)
        """
    }

    static func app(_ name: String, platforms: String?) -> String {
        """
          - name: \(name)
            library: afnetworking
            hosts: [pinning.test]
            policy: { mode: none }
        \(platforms.map { "    platforms: [\($0)]\n" } ?? "")
        """
    }

    /// A file's `platforms: [system]` judges its apps as without platforms; `--platform system` does so whatever
    /// the file names, even versions no snapshot here has.
    @Test func aPolicyFilesSystemAndTheFlagOverAFilesVersionsJudgeAsWithoutPlatforms() throws {
        try TemporaryDirectory.with { directory in
            let system = try directory.write("system.yaml", text: Self.policy(Self.app("plain", platforms: "system")))
            let android = try directory.write("android.yaml",
                                              text: Self.policy(Self.app("plain", platforms: "android@24-25")))
            let verify = ["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test", "--at", TestTime.nowText,
                          "--config"]

            let bySystem = try PinctlProcess.run(verify + [system], environment: Self.noStores)
            let overAndroid = try PinctlProcess.run(verify + [android, "--platform", "system"],
                                                    environment: Self.noStores)
            let onAndroid = try PinctlProcess.run(verify + [android], environment: Self.noStores)

            #expect(bySystem.status == 0, "\(bySystem)")
            #expect(bySystem.stdout.contains("  plain  afnetworking  -         TRUSTED  chain valid, nothing pinned\n"),
                    "\(bySystem)")
            #expect(overAndroid.status == 0, "\(overAndroid)")
            #expect(overAndroid.stdout == bySystem.stdout, "\(overAndroid)\n\(bySystem)")
            // Without the flag the file's versions are asked for, and there is no snapshot of them here.
            #expect(onAndroid.status == 2, "\(onAndroid)")
        }
    }

    /// An app on `system` beside an app on versions, or `system` beside a version in one app's list, is refused at
    /// the app: judged with the others, it would be judged on their versions instead.
    @Test func anAppOnSystemBesideAppsOnVersionsIsRefusedAtTheApp() throws {
        try StoresCommandTests.withStores { directory in
            let mixedApps = try directory.write("apps.yaml", text: Self.policy(
                Self.app("plain", platforms: "system") + Self.app("mobile", platforms: "android@24-25")))
            let mixedList = try directory.write("list.yaml", text: Self.policy(
                Self.app("both", platforms: "system, android@24")))
            let verify = ["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test", "--at", TestTime.nowText,
                          "--stores", directory.path("stores"), "--config"]

            let apps = try PinctlProcess.run(verify + [mixedApps])
            let list = try PinctlProcess.run(verify + [mixedList])

            #expect(apps.status == 2, "\(apps)")
            #expect(apps.stderr.contains("\(mixedApps):3: app plain: platforms: system (OpenSSL's default store, as "
                + "without a platform) cannot be judged in one run beside apps judged on android@24-25: check the "
                + "apps on system in a run of their own"), "\(apps)")
            #expect(list.status == 2, "\(list)")
            #expect(list.stderr.contains("\(mixedList):3: app both: platforms: system (OpenSSL's default store, as "
                + "without a platform) cannot be judged beside android@24 in one run: judge it in a run of its own"),
                    "\(list)")
        }
    }
}
