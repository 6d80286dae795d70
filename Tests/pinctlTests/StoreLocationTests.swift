import Foundation
import Testing
import TestSupport

/// Where pinctl finds its store snapshots without being told (DESIGN §12, "Where the data lives"): `--stores DIR`,
/// then `PINCTL_STORES`, then the installed copy PREFIX/share/pinctl/stores beside the binary, on a copy of the binary
/// laid out as the Debian package installs it (`InstalledLayout`) and the small snapshot of `StoresCommandTests`.
@Suite struct StoreLocationTests {
    /// The newest snapshot of `StoresCommandTests.histories`: iOS 18 and macOS 15's trust store 2024051500.
    static let newest = "newest snapshot 2024-05-15"

    /// Runs `body` with the small snapshot built in `stores/` and copied to `env-stores/`, and a layout (with
    /// pinctl-serve when `serve`) whose installed copy is a third copy.
    static func withInstalledStores(
        serve: Bool = false, _ body: (TemporaryDirectory, InstalledLayout) throws -> Void
    ) throws {
        try StoresCommandTests.withStores { directory in
            try FileManager.default.copyItem(atPath: directory.path("stores"), toPath: directory.path("env-stores"))
            let layout = try InstalledLayout(in: directory, serve: serve)
            try layout.installStores(from: directory.path("stores"))
            try body(directory, layout)
        }
    }

    @Test func theOptionBeatsTheVariableWhichBeatsTheInstalledCopy() throws {
        try Self.withInstalledStores { directory, layout in
            let environment = ["PINCTL_STORES": directory.path("env-stores")]
            let option = try layout.run(["stores", "--stores", directory.path("stores")], environment: environment)
            let variable = try layout.run(["stores"], environment: environment)
            let installed = try layout.run(["stores"])
            let emptyVariable = try layout.run(["stores"], environment: ["PINCTL_STORES": ""])

            #expect(option.stdout.hasPrefix(
                "snapshots in \(directory.path("stores")) (from --stores); \(Self.newest)\n"), "\(option)")
            #expect(variable.stdout.hasPrefix(
                "snapshots in \(directory.path("env-stores")) (from PINCTL_STORES); \(Self.newest)\n"), "\(variable)")
            #expect(installed.status == 0, "\(installed)")
            #expect(installed.stdout.hasPrefix("snapshots in \(layout.prefix)/share/pinctl/stores (from the installed "
                + "copy beside the binary); \(Self.newest)\n"), "\(installed)")
            // `PINCTL_STORES=` unsets it, as shells use an empty variable.
            #expect(emptyVariable.stdout == installed.stdout, "\(emptyVariable)")
        }
    }

    /// The whole listing: the directory line, then the table as before.
    @Test func theListNamesTheDirectoryItReadAndItsNewestSnapshotDate() throws {
        try Self.withInstalledStores { _, layout in
            let result = try layout.run(["stores", "android"])

            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == """
                snapshots in \(layout.prefix)/share/pinctl/stores (from the installed copy beside the binary); \
                newest snapshot 2024-05-15
                snapshot    date        roots  label
                android@24  2016-08-01      1  Android 7.0 (API 24)
                android@25  2016-12-05      2  Android 7.1.1 (API 25)

                """)
        }
    }

    @Test func withNoSnapshotAnywhereAPlatformIsAnInputErrorNamingEveryPlaceLooked() throws {
        try TemporaryDirectory.with { directory in
            let layout = try InstalledLayout(in: directory)
            let verify = try layout.run(["verify", "--chain", "leaf-chain.pem", "--ca-file", "root-ca.pem", "--host",
                                         "pinning.test", "--at", TestTime.nowText, "--platform", "android@24"])
            let stores = try layout.run(["stores"])

            let looked = "no store snapshots: looked at --stores (not given), PINCTL_STORES (not set), "
                + "\(layout.prefix)/share/pinctl/stores (the installed copy: not there); build them with "
                + "scripts/build-stores.sh (docs/platform-stores.md), then pass --stores DIR or set PINCTL_STORES\n"
            #expect(verify.status == 2, "\(verify)")
            #expect(verify.stderr == "pinctl: --platform: " + looked, "\(verify)")
            #expect(verify.stdout.isEmpty, "\(verify)")
            #expect(stores.status == 2, "\(stores)")
            #expect(stores.stderr == "pinctl: " + looked, "\(stores)")
        }
    }

    /// A variable or option set on purpose names the directory meant: when it is wrong, the error is about it, and
    /// the installed copy, which is there, is not read in its place.
    @Test func aWrongVariableOrOptionIsAnErrorAboutItsDirectoryNotAFallBack() throws {
        try Self.withInstalledStores { directory, layout in
            let missing = directory.path("missing")
            let variable = try layout.run(["stores"], environment: ["PINCTL_STORES": missing])
            let option = try layout.run(["stores", "--stores", missing],
                                        environment: ["PINCTL_STORES": directory.path("env-stores")])
            let verify = try layout.run(["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test", "--at",
                                         TestTime.nowText, "--platform", "android@24"],
                                        environment: ["PINCTL_STORES": missing])

            for (result, rule) in [(variable, "PINCTL_STORES"), (option, "--stores"), (verify, "PINCTL_STORES")] {
                #expect(result.status == 2, "\(result)")
                #expect(result.stderr.contains("\(missing)/FORMAT: "), "\(result)")
                #expect(result.stderr.contains("\(missing) (from \(rule)) is not a store snapshot directory; build "
                    + "them with scripts/build-stores.sh"), "\(result)")
                #expect(result.stdout.isEmpty, "\(result)")
            }
        }
    }
}
