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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
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
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            // Written from another thread, so a child that does not read cannot block the test.
            let writer = stdin.fileHandleForWriting
            DispatchQueue.global().async {
                try? writer.write(contentsOf: Data(input))
                try? writer.close()
            }
        }
        // Read both pipes while the process runs, so a large output cannot fill a pipe and stall it.
        let outData = Captured()
        let errData = Captured()
        let group = DispatchGroup()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            DispatchQueue.global().async(group: group) { sink.data = Self.readToEnd(pipe.fileHandleForReading.fileDescriptor) }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            // SIGKILL, not terminate()'s SIGTERM: an old pinctl blocked opening a named pipe was seen to outlive
            // SIGTERM here, and no process may outlive its test.
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData.data, as: UTF8.self),
            stderr: String(decoding: errData.data, as: UTF8.self))
    }
}

extension PinctlProcess {
    /// Everything a pipe delivers until end of file. read(2) in a loop that retries EINTR: Foundation's
    /// readDataToEndOfFile was seen to crash with "Interrupted system call" under load.
    static func readToEnd(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }
}

private final class Captured: @unchecked Sendable {
    // Written by one reader thread, read after group.wait().
    var data = Data()
}
