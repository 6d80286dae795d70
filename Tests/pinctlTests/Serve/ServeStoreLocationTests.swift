import Foundation
import Testing
import TestSupport

/// `pinctl serve` finds its store snapshots where every other command does (StoreLocationTests), though the process
/// that serves is pinctl-serve, installed beside pinctl.
@Suite struct ServeStoreLocationTests {
    /// `pinctl serve` runs pinctl-serve beside pinctl (in PREFIX/lib/pinctl/ from the package), which finds the same
    /// installed copy: a version that copy lacks is named with the copy's directory, as `check --config` names it.
    @Test func serveReadsTheInstalledCopyThatPinctlReads() throws {
        try StoreLocationTests.withInstalledStores(serve: true) { directory, layout in
            let file = try directory.write("pinctl.yaml", text: ServePlatformsTests.policyFile(
                target: "127.0.0.1:1", platforms: "android@23"))
            let serve = try layout.run(["serve", "--config", file, "--listen", "127.0.0.1:0"])
            let check = try layout.run(["check", "--config", file])

            let message = "\(file): platforms: android has no snapshot of version 23 (in \"android@23\"); the "
                + "snapshots in \(layout.prefix)/share/pinctl/stores have 24, 25\n"
            #expect(serve.status == 2, "\(serve)")
            #expect(serve.stderr == "pinctl serve: " + message, "\(serve)")
            #expect(check.status == 2, "\(check)")
            #expect(check.stderr == "pinctl: " + message, "\(check)")
        }
    }
}
