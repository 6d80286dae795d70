import Foundation
import Glibc
import Synchronization
import Transport

/// A long-running program a test starts and must end: `openssl s_server`, `openssl ocsp`, `pinctl serve`. What it
/// writes is collected on a thread of its own, so it never blocks on a full pipe, and read by the test as it comes.
/// Short-lived programs use `Subprocess.run` instead.
// @unchecked Sendable: every stored property is set in init; Process is only asked whether it runs, signalled and
// reaped.
public final class BackgroundProcess: @unchecked Sendable {
    /// Which of the program's outputs are collected; the other is discarded.
    public enum Capture: Sendable {
        case standardError
        case standardOutputAndError
    }

    private let process = Process()
    private let input: Pipe?
    private let collector: OutputCollector
    private let stopping = StopFlag()

    /// Starts `executable arguments` in `directory` (a name without a `/` is looked up on the PATH). With
    /// `keepsInputOpen` its standard input is a pipe held open until `stop()` (for a program that ends at the end of
    /// its input); otherwise /dev/null.
    public init(_ executable: String, _ arguments: [String], in directory: String, capture: Capture,
                keepsInputOpen: Bool = false) throws {
        Subprocess.launching(executable, arguments, in: process)
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        input = keepsInputOpen ? Pipe() : nil
        process.standardInput = input ?? FileHandle.nullDevice
        let output = Pipe()
        process.standardError = output
        process.standardOutput = capture == .standardOutputAndError ? output : FileHandle.nullDevice
        try process.run()
        collector = OutputCollector(output, of: process)
    }

    deinit { stop() }

    /// Everything the program wrote so far, as UTF-8.
    public var output: String { String(decoding: collector.snapshot.bytes, as: UTF8.self) }

    public var processIdentifier: Int32 { process.processIdentifier }

    public var isRunning: Bool { process.isRunning }

    /// Sends `number` to the program.
    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits until `match` finds something in the output, at most `seconds`; nil if it did not, or if the program
    /// ended first (everything it wrote before ending is looked at).
    public func waitForOutput<T>(seconds: Double, _ match: (String) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let (bytes, ended) = collector.snapshot
            if let found = match(String(decoding: bytes, as: UTF8.self)) { return found }
            if ended { return nil }
            usleep(10_000)
        }
        return nil
    }

    /// Waits for the program to end by itself and for its output to be collected; its exit status, or nil if it
    /// still runs after `seconds`.
    public func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        collector.waitUntilDrained()
        return process.terminationStatus
    }

    /// Ends the program if it still runs, reaps it and collects the rest of its output; idempotent. SIGKILL: the
    /// test runner's threads block SIGTERM, a child started from one inherits that mask, and no test may leave a
    /// program behind.
    public func stop() {
        guard stopping.set() else { return }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? input?.fileHandleForWriting.close()
        collector.waitUntilDrained()
    }
}

/// The program's output, read on a thread of its own. The thread holds this and the process, not the
/// `BackgroundProcess`, so a server a test forgets to stop is still stopped when it is released.
// @unchecked Sendable: `collected` and `drained` are guarded by `condition`; the pipe and process are set in init.
private final class OutputCollector: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var collected: [UInt8] = []
    private var drained = false
    private let pipe: Pipe
    private let process: Process

    init(_ pipe: Pipe, of process: Process) {
        self.pipe = pipe
        self.process = process
        let fd = pipe.fileHandleForReading.fileDescriptor
        Thread.detachNewThread { [self] in collect(from: fd) }
    }

    /// What was collected so far, and whether that is all.
    var snapshot: (bytes: [UInt8], ended: Bool) { condition.withLock { (collected, drained) } }

    func waitUntilDrained() {
        condition.withLock {
            while !drained { condition.wait() }
        }
    }

    /// Reads until the end of the pipe, or until the program has ended and the pipe holds nothing more: not to the
    /// end alone, because a program another test starts at the same moment can inherit the pipe's write end, so the
    /// end may come long after this program's.
    private func collect(from fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var exited = false
        while true {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, exited ? 0 : 50)
            if ready < 0, errno == EINTR { continue }
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    condition.withLock { collected += buffer[..<count] }
                    continue
                }
                if count < 0, errno == EINTR { continue }
                break
            }
            if ready < 0 || exited { break }
            // Checked after a quiet poll; once it has ended, one more pass reads what it wrote just before.
            exited = !process.isRunning
        }
        condition.withLock {
            drained = true
            condition.broadcast()
        }
    }
}

/// A flag set once, read from any thread.
final class StopFlag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    /// True for the first caller only.
    func set() -> Bool {
        value.withLock { isSet in
            defer { isSet = true }
            return !isSet
        }
    }
}
