import Foundation
import Glibc
import TestSupport

/// A `pinctl serve` started by a test as a separate process, as an operator runs it: it listens on a free loopback
/// port (`--listen 127.0.0.1:0`), whose number the test reads from its log.
final class ServeProcess: @unchecked Sendable {
    // Set in init; BackgroundProcess is thread-safe.
    let process: BackgroundProcess
    let port: UInt16

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `pinctl serve --listen 127.0.0.1:0 ARGUMENTS` and waits until it listens.
    init(_ arguments: [String], startSeconds: Double = 90) throws {
        process = try BackgroundProcess(PinctlProcess.binary, ["serve", "--listen", "127.0.0.1:0"] + arguments,
                                        in: Certs.directory, capture: .standardError)
        guard let found = process.waitForOutput(seconds: startSeconds, Self.listeningPort(in:)), process.isRunning
        else {
            process.stop()
            throw Failure(description: "pinctl serve did not start listening:\n\(process.output)")
        }
        port = found
    }

    deinit { stop() }

    /// What the exporter logged so far.
    var stderr: String { process.output }

    var client: HTTPTestClient { HTTPTestClient(port: port) }

    func signal(_ number: Int32) { process.signal(number) }

    /// Waits for the process to end by itself; nil if it is still running after `seconds`.
    func waitForExit(seconds: Double) -> Int32? { process.waitForExit(seconds: seconds) }

    /// Waits until the log contains `text`, at most `seconds`.
    func waitForLog(_ text: String, seconds: Double = 10) -> Bool {
        process.waitForOutput(seconds: seconds) { $0.contains(text) ? true : nil } ?? false
    }

    /// The exporter's threads now, from /proc.
    var threadCount: Int? {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            .flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) }
    }

    /// The exporter's threads now named `name` (/proc/PID/task/*/comm).
    func threadCount(named name: String) -> Int {
        let tasks = "/proc/\(process.processIdentifier)/task"
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return ids.filter { id in
            let comm = (try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .newlines) == name
        }.count
    }

    /// Ends the exporter if it still runs (SIGKILL: no test may leave it behind) and reaps it.
    func stop() { process.stop() }

    private static func listeningPort(in log: String) -> UInt16? {
        guard let range = log.range(of: "serving /probe, /metrics and / on 127.0.0.1:") else { return nil }
        return UInt16(log[range.upperBound...].prefix { $0.isNumber })
    }
}
