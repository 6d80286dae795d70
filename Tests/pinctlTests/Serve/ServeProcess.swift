import Foundation
import Glibc
import TestSupport

/// A `pinctl serve` started by a test as a separate process, as an operator runs it: it listens on a free loopback
/// port (`--listen 127.0.0.1:0`), whose number the test reads from its log.
final class ServeProcess: @unchecked Sendable {
    // Set in init; `Process` itself is thread-safe enough for isRunning and terminationStatus.
    let process = Process()
    let port: UInt16
    private let log: LogCollector

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `pinctl serve --listen 127.0.0.1:0 ARGUMENTS` and waits until it listens.
    init(_ arguments: [String], startSeconds: Double = 90) throws {
        process.executableURL = URL(fileURLWithPath: PinctlProcess.binary)
        process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Certs.directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        log = LogCollector(fd: stderr.fileHandleForReading.fileDescriptor)
        let deadline = Date().addingTimeInterval(startSeconds)
        var found: UInt16?
        while found == nil, Date() < deadline, process.isRunning {
            found = Self.listeningPort(in: log.text)
            if found == nil { usleep(20_000) }
        }
        guard let found, process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            log.waitForEnd()
            throw Failure(description: "pinctl serve did not start listening:\n\(log.text)")
        }
        port = found
    }

    deinit { stop() }

    /// What the exporter logged so far.
    var stderr: String { log.text }

    var client: HTTPTestClient { HTTPTestClient(port: port) }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the process to end by itself; nil if it is still running after `seconds`.
    func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Waits until the log contains `text`, at most `seconds`.
    func waitForLog(_ text: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if stderr.contains(text) { return true }
            usleep(10_000)
        }
        return false
    }

    /// The exporter's threads now, from /proc.
    var threadCount: Int? {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            .flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) }
    }

    /// Ends the exporter if it still runs (SIGKILL: no test may leave it behind) and reaps it.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        log.waitForEnd()
    }

    private static func listeningPort(in log: String) -> UInt16? {
        guard let range = log.range(of: "serving /probe, /metrics and / on 127.0.0.1:") else { return nil }
        return UInt16(log[range.upperBound...].prefix { $0.isNumber })
    }
}

/// Everything a process writes to a pipe, read on a thread of its own until the pipe closes, so that a chatty
/// process never blocks on it.
// @unchecked Sendable: `collected` and `ended` are guarded by `condition`.
private final class LogCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var collected = ""
    private var ended = false

    init(fd: Int32) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    let text = String(decoding: buffer[..<count], as: UTF8.self)
                    condition.withLock { collected += text }
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            condition.withLock {
                ended = true
                condition.broadcast()
            }
        }
    }

    var text: String { condition.withLock { collected } }

    /// Returns once the writer has closed the pipe (it has exited); at once if it already has.
    func waitForEnd() {
        condition.lock()
        while !ended { condition.wait() }
        condition.unlock()
    }
}
