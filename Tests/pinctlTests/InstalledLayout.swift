import Foundation
import TestSupport

/// The binary under test laid out as the Debian package installs it, in a temporary directory: PREFIX/lib/pinctl/
/// holds copies of pinctl and (with `serve`) pinctl-serve, PREFIX/bin/pinctl is a symbolic link to the first, and
/// PREFIX/share/pinctl/stores is the installed snapshot copy when a test puts one there. Copies, not links: pinctl
/// finds its installed copy from its own real path (/proc/self/exe), which a link would lead back to .build.
struct InstalledLayout {
    /// PREFIX, symbolic links resolved, as pinctl sees it through /proc/self/exe.
    let prefix: String

    var pinctl: String { prefix + "/bin/pinctl" }
    /// Where pinctl looks for its installed copy.
    var stores: String { prefix + "/share/pinctl/stores" }

    init(in directory: TemporaryDirectory, serve: Bool = false) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: directory.path("prefix/lib/pinctl"), withIntermediateDirectories: true)
        prefix = URL(fileURLWithPath: directory.path("prefix")).resolvingSymlinksInPath().path
        try files.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        let built = URL(fileURLWithPath: PinctlProcess.binary).resolvingSymlinksInPath().deletingLastPathComponent()
        for name in serve ? ["pinctl", "pinctl-serve"] : ["pinctl"] {
            try files.copyItem(atPath: built.appendingPathComponent(name).path, toPath: prefix + "/lib/pinctl/" + name)
        }
        try files.createSymbolicLink(atPath: pinctl, withDestinationPath: "../lib/pinctl/pinctl")
    }

    /// Puts `snapshot` (a snapshot directory) at PREFIX/share/pinctl/stores, as a copy or as a symbolic link to it.
    func installStores(from snapshot: String, asLink: Bool = false) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: prefix + "/share/pinctl", withIntermediateDirectories: true)
        if asLink {
            try files.createSymbolicLink(atPath: stores, withDestinationPath: snapshot)
        } else {
            try files.copyItem(atPath: snapshot, toPath: stores)
        }
    }

    /// Runs PREFIX/bin/pinctl in `directory` with PINCTL_STORES unset (whatever the test runner has) unless
    /// `environment` sets it.
    func run(_ arguments: [String], in directory: String = Certs.directory, environment: [String: String] = [:])
        throws -> PinctlProcess.Result {
        try Self.runUnset(pinctl, arguments, in: directory, environment: environment)
    }

    /// Runs `binary` with PINCTL_STORES unset unless `environment` sets it: `env -u`, since the test's own
    /// environment is passed on.
    static func runUnset(_ binary: String, _ arguments: [String], in directory: String = Certs.directory,
                         environment: [String: String] = [:]) throws -> PinctlProcess.Result {
        let unset = environment["PINCTL_STORES"] == nil ? ["-u", "PINCTL_STORES"] : []
        return try Subprocess.run("/usr/bin/env", unset + [binary] + arguments, in: directory,
                                  environment: ["NO_COLOR": "1"].merging(environment) { $1 })
    }
}
