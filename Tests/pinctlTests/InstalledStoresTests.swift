import Foundation
import Testing
import TestSupport

/// A real chain judged on the team's store snapshot where pinctl finds it with no flag and no variable: the copy
/// installed beside the binary (issue 33's "Done when"). Against the Debian package's /usr/bin/pinctl
/// (scripts/test-release.sh with PINCTL_BINARY sets PINCTL_TEST_INSTALLED) that is /usr/share/pinctl/stores as the
/// package carries it; otherwise the binary under test is laid out as the package lays it out, its installed copy a
/// link to ../shared/stores. Either way the data comes from ../shared, and its absence fails the test.
@Suite struct InstalledStoresTests {
    /// Runs `body` with the pinctl to run and the directory its installed copy must be read from.
    static func withInstalledPinctl(_ body: (_ pinctl: String, _ stores: String) throws -> Void) throws {
        if ProcessInfo.processInfo.environment["PINCTL_TEST_INSTALLED"] != nil {
            // PREFIX/bin/pinctl → PREFIX/share/pinctl/stores: /usr/bin/pinctl → /usr/share/pinctl/stores.
            let prefix = URL(fileURLWithPath: PinctlProcess.binary).deletingLastPathComponent()
                .deletingLastPathComponent().path
            try body(PinctlProcess.binary, prefix + "/share/pinctl/stores")
            return
        }
        let shared = try SharedData.stores()
        try TemporaryDirectory.with { directory in
            let layout = try InstalledLayout(in: directory)
            try layout.installStores(from: shared, asLink: true)
            try body(layout.pinctl, layout.stores)
        }
    }

    /// Let's Encrypt's certificate compatibility page (letsencrypt.org/docs/certificate-compatibility): ISRG Root X1
    /// is trusted from Android 7.1.1 (API 25), and not before. stackoverflow.com's chain of ../shared/chains ends at
    /// ISRG Root X1 through one intermediate (../shared/chains/README.md), its leaf valid on 2026-03-01.
    @Test func stackoverflowsChainIsRejectedOnAPI24AndTrustedOnAPI25WithNoFlagOrVariable() throws {
        let chain = try SharedData.chain("stackoverflow.com.pem")
        try Self.withInstalledPinctl { pinctl, _ in
            let result = try InstalledLayout.runUnset(pinctl, [
                "verify", "--chain", chain, "--host", "stackoverflow.com", "--at", "2026-03-01T00:00:00Z",
                "--platform", "android@24-25"])
            let lines = result.stdout.split(separator: "\n").map(String.init)
            let api24 = lines.filter { $0.contains("(API 24)") }
            let api25 = lines.filter { $0.contains("(API 25)") }

            // DESIGN §3: a rejection is exit 1.
            #expect(result.status == 1, "\(result)")
            #expect(api24.count == 1 && api24[0].contains("REJECTED untrusted-chain")
                        && api24[0].contains("ISRG Root X1"), "\(result)")
            #expect(api25.count == 1 && api25[0].hasSuffix(": TRUSTED — anchor ISRG Root X1"),
                    "\(result)")
        }
    }

    @Test func theStoresListNamesTheInstalledCopy() throws {
        try Self.withInstalledPinctl { pinctl, stores in
            let result = try InstalledLayout.runUnset(pinctl, ["stores", "android@24-25"])

            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix(
                "snapshots in \(stores) (from the installed copy beside the binary); newest snapshot "), "\(result)")
            #expect(result.stdout.contains("\nandroid@25  "), "\(result)")
        }
    }
}
