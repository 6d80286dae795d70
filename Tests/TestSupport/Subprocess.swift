import Foundation
import Glibc

/// Runs a short-lived program to its end: the one way tests run `pinctl`, the openssl CLI, shells, Python or
/// `script(1)`. Both output pipes are read while it runs, so no output can fill a pipe and stall it, and a program
/// still running at the deadline is killed. Long-running servers use `BackgroundProcess` instead.
public enum Subprocess {
    /// Sets `process` to run `executable arguments`: a name without a `/` is looked up on the PATH, as a shell does.
    static func launching(_ executable: String, _ arguments: [String], in process: Process) {
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
    }

    /// How a program ended and what it wrote.
    public struct Result: Sendable, CustomStringConvertible {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    /// Runs `executable arguments` in `directory` with the test's environment plus `environment`, and `input` as
    /// standard input (nil: /dev/null); waits at most `timeout`, then kills it. An executable named without a `/` is
    /// looked up on the PATH, as a shell does.
    public static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil,
        environment: [String: String] = [:], input: [UInt8]? = nil, timeout: TimeInterval = 60
    ) throws -> Result {
        let process = Process()
        launching(executable, arguments, in: process)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
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
        let outData = Captured()
        let errData = Captured()
        let group = DispatchGroup()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            let fd = pipe.fileHandleForReading.fileDescriptor
            DispatchQueue.global().async(group: group) { sink.data = readToEnd(fd) }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            // SIGKILL, not terminate()'s SIGTERM: an old pinctl blocked opening a named pipe was seen to outlive
            // SIGTERM here, and no process may outlive its test. Its process group too, when it leads one: Chromium
            // does, and its GPU and renderer processes outlived their killed browser for an hour, busy.
            let group = getpgid(process.processIdentifier)
            kill(process.processIdentifier, SIGKILL)
            if group == process.processIdentifier { kill(-group, SIGKILL) }
        }
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData.data, as: UTF8.self),
            stderr: String(decoding: errData.data, as: UTF8.self))
    }

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
