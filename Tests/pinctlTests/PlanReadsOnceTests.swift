import Foundation
import TestSupport
import Testing

/// A run reads its policy file and each app's configuration once (issue #34: `verify --config` opened pinctl.yaml
/// twice, once to look for `platforms:` and once to judge, and each app's NSC file with it). Counted by strace on the
/// built binary, as the issue counted it: every open(2) of the path, whatever reads it.
@Suite struct PlanReadsOnceTests {
    static let examples = Certs.root + "/examples"
    static let strace = "/usr/bin/strace"

    /// How many times the run of `arguments` in `examples/` opened each path (as pinctl named it), from strace's log.
    static func opens(_ arguments: [String], status: Int32) throws -> [String: Int] {
        // setup.sh --tests installs strace: a machine without it fails here rather than skipping the check.
        try #require(FileManager.default.isExecutableFile(atPath: strace), "strace is missing: scripts/setup.sh --tests")
        return try TemporaryDirectory.with { directory in
            let log = directory.path("opens.log")
            // LeakSanitizer cannot run under ptrace and ends the process with ASan's exit code (scripts/test-asan.sh):
            // under strace the sanitized pinctl checks everything but leaks, which the rest of that suite checks.
            let asan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
            let result = try Subprocess.run(strace, ["-f", "-e", "trace=open,openat", "-o", log, PinctlProcess.binary]
                                            + arguments, in: examples,
                                            environment: ["NO_COLOR": "1", "ASAN_OPTIONS": asan + "detect_leaks=0"])
            #expect(result.status == status, "\(result)")
            var counts: [String: Int] = [:]
            for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            where !line.contains("ENOENT") {
                // 1234 openat(AT_FDCWD, "pinctl.yaml", O_RDONLY|O_CLOEXEC) = 3
                guard let start = line.firstIndex(of: "\""), let end = line[line.index(after: start)...].firstIndex(of: "\"")
                else { continue }
                counts[String(line[line.index(after: start)..<end]), default: 0] += 1
            }
            return counts
        }
    }

    static let verify = ["verify", "--config", "pinctl.yaml", "--chain", "../certs/libraries/leaf-chain.pem",
                         "--host", "api.example.com", "--at", "2026-06-01T00:00:00Z"]

    @Test func verifyOpensThePolicyFileAndTheNSCFileOnce() throws {
        let counts = try Self.opens(Self.verify, status: 0)
        #expect(counts["pinctl.yaml"] == 1, "\(counts)")
        #expect(counts["android/res/xml/network_security_config.xml"] == 1, "\(counts)")
        #expect(counts["ios/Info.plist"] == 1, "\(counts)")
        #expect(counts["../certs/libraries/root-ca.pem"] == 1, "\(counts)")
        // Two apps (ios-afn and ios-alamofire) pin the keys of ios/pins/: the directory is read once.
        #expect(counts.filter { $0.key.hasPrefix("ios/pins/") && $0.key.hasSuffix(".cer") }.values.sorted() == [1],
                "\(counts)")
    }

    @Test func lintOfAChainOpensThemOnceToo() throws {
        // Exit 1: lint finds no backup pin in the example's apps.
        let counts = try Self.opens(["lint"] + Self.verify.dropFirst(), status: 1)
        #expect(counts["pinctl.yaml"] == 1, "\(counts)")
        #expect(counts["android/res/xml/network_security_config.xml"] == 1, "\(counts)")
    }

    /// On 2 platform versions each version has a judge of its own; the files are still read once, for the first.
    @Test func onPlatformsTheyAreStillOpenedOnce() throws {
        // Exit 1: the example's anchors are its user's roots, which apps targeting API 24 or later do not trust.
        let counts = try Self.opens(Self.verify + ["--platform", "android@24-25", "--stores", try SharedData.stores()],
                                    status: 1)
        #expect(counts["pinctl.yaml"] == 1, "\(counts)")
        #expect(counts["android/res/xml/network_security_config.xml"] == 1, "\(counts)")
        #expect(counts["../certs/libraries/root-ca.pem"] == 1, "\(counts)")
    }
}
