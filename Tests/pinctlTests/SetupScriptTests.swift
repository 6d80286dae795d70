import Foundation
import Testing
import TestSupport

/// scripts/setup.sh, which README's two commands run first: it names what is missing and installs only that. Run
/// here with `--list` (nothing is installed) and a `dpkg-query` on PATH that knows no package.
@Suite struct SetupScriptTests {
    static let script = "\(Certs.root)/scripts/setup.sh"

    /// Runs the script with a PATH whose first directory holds a `dpkg-query` that finds nothing installed.
    func runWithoutPackages(_ arguments: [String]) throws -> Subprocess.Result {
        try TemporaryDirectory.with { directory in
            let stub = directory.path("dpkg-query")
            try "#!/bin/sh\nexit 1\n".write(toFile: stub, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub)
            let path = directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            return try Subprocess.run(Self.script, arguments, environment: ["PATH": path])
        }
    }

    @Test func listNamesEachMissingLibraryAndWhyAndInstallsNothing() throws {
        let result = try runWithoutPackages(["--list"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.hasPrefix("setup.sh: 7 Debian package(s) missing:\n"), "\(result)")
        for line in ["  libssl-dev — OpenSSL 3, the one X.509 and TLS engine", "  libpsl-dev — TrustKit's public-suffix "
                     + "rules", "  libjansson-dev — TrustKit's configuration as JSON", "  publicsuffix — the list "
                     + "libpsl reads", "  libarchive-dev — the zip archives apps are built into (an .ipa), read by "
                     + "libarchive"] {
            #expect(result.stderr.contains(line + "\n"), "\(line): \(result)")
        }
        // The test tools only with --tests.
        #expect(!result.stderr.contains("python3-jsonschema"), "\(result)")
        #expect(!result.stderr.contains("installing"), "\(result)")
    }

    @Test func testsAddTheSuitesPackages() throws {
        let result = try runWithoutPackages(["--tests", "--list"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("  python3-jsonschema — one test validates pinctl's SARIF"), "\(result)")
        #expect(result.stderr.contains("  prometheus — a test runs promtool test rules on the alerting rules pinctl "
            + "ships"), "\(result)")
    }

    @Test func anUnknownOptionIsAUsageError() throws {
        let result = try Subprocess.run(Self.script, ["--everything"])

        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "setup.sh: unknown option '--everything' (expected --tests, --ci, --bench, --list)\n")
    }
}
