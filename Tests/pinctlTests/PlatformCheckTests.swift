import Foundation
import Testing
import TestSupport

/// `check --platform` (DESIGN §12): a loopback server presenting leaf.pem and intermediate-ca.pem, whose root (the
/// pinctl Test root) the snapshots of `StoresCommandTests.histories` have at API 24 and 25 and iOS 17, not iOS 18.
@Suite struct PlatformCheckTests {
    static let testRoot = "CN=pinctl Test Root CA,O=pinctl Test"

    @Test func versionsWithTheSameVerdictAreOneLineAndTheExitCodeIsTheMostSevere() throws {
        try StoresCommandTests.withStores { directory in
            let server = try LiveRun.server()
            defer { server.stop() }
            let base = ["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test", "--at", TestTime.nowText,
                        "--stores", directory.path("stores")]

            let android = try PinctlProcess.run(base + ["--platform", "android@24-25"])
            let apple = try PinctlProcess.run(base + ["--platform", "ios@17-18"])

            #expect(android.status == 0, "\(android)")
            #expect(android.stdout.hasSuffix("\n  Android 7.0–7.1.1 (API 24–25): TRUSTED"
                + " — anchor pinctl Test Root CA\n"), "\(android)")
            #expect(apple.status == 1, "\(apple)")
            #expect(apple.stdout.hasSuffix("""

                  iOS 17: \(PlatformVerifyTests.appleValidity)
                  iOS 18: REJECTED untrusted-chain — \(Self.testRoot) is not in that store

                """), "\(apple)")
        }
    }

    /// One result per (target, app, platform range): each app of a policy file has its own ranges. leaf-pinned is
    /// trusted on both versions, but on different paths (iOS 17 ends it at the store's root; iOS 18 lacks that root
    /// and the pin alone, with invalid certificates allowed, trusts the leaf), so it is two results.
    @Test func eachAppOfAPolicyFileHasItsOwnPlatformRanges() throws {
        try StoresCommandTests.withStores { directory in
            let server = try LiveRun.server()
            defer { server.stop() }
            let config = directory.path("pinctl.yaml")
            try """
                apps:
                  - name: validating
                    library: afnetworking
                    hosts: [pinning.test]
                    policy: { mode: none }
                  - name: leaf-pinned
                    library: afnetworking
                    hosts: [pinning.test]
                    policy: { mode: publickey, pins: [\(Certs.path("leaf.pem"))], allowInvalidCertificates: true }
                """.write(toFile: config, atomically: true, encoding: .utf8)

            let result = try PinctlProcess.run(
                ["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test", "--at", TestTime.nowText,
                 "--config", config, "--platform", "ios@17-18", "--stores", directory.path("stores")])

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("""
                  validating (afnetworking) on iOS 17: \(PlatformVerifyTests.appleValidity)
                  validating (afnetworking) on iOS 18: REJECTED untrusted-chain — \(Self.testRoot) is not in that store
                  leaf-pinned (afnetworking) on iOS 17: TRUSTED — anchor pinctl Test Root CA
                  leaf-pinned (afnetworking) on iOS 18: TRUSTED — anchor pinctl Test Intermediate CA (presented); \
                another anchor than on the versions before (pinctl Test Root CA)

                """), "\(result)")
        }
    }
}
