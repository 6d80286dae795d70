import Foundation

/// Runs the built `pinctl` as a separate process, the way a user or a CI job does.
public enum PinctlProcess {
    public struct Result: Sendable, CustomStringConvertible {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    /// The `pinctl` built beside the test bundle, or `PINCTL_BINARY`.
    public static let binary: String = {
        if let explicit = ProcessInfo.processInfo.environment["PINCTL_BINARY"] { return explicit }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("pinctl").path
    }()

    /// Runs `pinctl arguments` in `directory` (default `certs/`) with no standard input; waits at most `timeout`.
    public static func run(
        _ arguments: [String], in directory: String = Certs.directory, environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs, so a large output cannot fill a pipe and stall it.
        let outData = Captured()
        let errData = Captured()
        let group = DispatchGroup()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            DispatchQueue.global().async(group: group) { sink.data = pipe.fileHandleForReading.readDataToEndOfFile() }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
        }
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData.data, as: UTF8.self),
            stderr: String(decoding: errData.data, as: UTF8.self))
    }
}

private final class Captured: @unchecked Sendable {
    // Written by one reader thread, read after group.wait().
    var data = Data()
}
