import Foundation

/// Runs the built `pinctl` as a separate process, the way a user or a CI job does.
public enum PinctlProcess {
    /// How a run ended and what it wrote (`Subprocess.Result`).
    public typealias Result = Subprocess.Result

    /// The `pinctl` built beside the test bundle, or `PINCTL_BINARY`.
    public static let binary: String = {
        if let explicit = ProcessInfo.processInfo.environment["PINCTL_BINARY"] { return explicit }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("pinctl").path
    }()

    /// Runs `pinctl arguments` in `directory` (default `certs/`) with `input` (default: none) as standard input;
    /// waits at most `timeout`.
    public static func run(
        _ arguments: [String], in directory: String = Certs.directory, environment: [String: String] = [:],
        input: [UInt8]? = nil, timeout: TimeInterval = 60
    ) throws -> Result {
        try run(executable: binary, arguments, in: directory, environment: environment, input: input, timeout: timeout)
    }

    /// Runs a `/bin/sh` script with `$PINCTL` set to the built binary: for arguments Foundation cannot pass, such as
    /// file names that are not UTF-8 (`"$(printf 'bad\377.pem')"`).
    public static func runShell(
        _ script: String, in directory: String = Certs.directory, timeout: TimeInterval = 60
    ) throws -> Result {
        try run(executable: "/bin/sh", ["-c", script], in: directory, environment: ["PINCTL": binary], input: nil,
                timeout: timeout)
    }

    private static func run(
        executable: String, _ arguments: [String], in directory: String, environment: [String: String],
        input: [UInt8]?, timeout: TimeInterval
    ) throws -> Result {
        // An absolute path, so a PINCTL_BINARY named without a `/` is the file in the current directory, not one
        // on the PATH.
        try Subprocess.run(URL(fileURLWithPath: executable).path, arguments, in: directory,
                           environment: ["NO_COLOR": "1"].merging(environment) { $1 }, input: input, timeout: timeout)
    }
}
