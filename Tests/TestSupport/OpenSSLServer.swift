import Foundation
import Glibc
import Transport

/// An `openssl s_server` on a loopback address, for what the in-process server does not do: an RSA and an ECDSA
/// certificate at once (`-cert`/`-dcert`), one protocol version only, a stapled OCSP response (`-status_file`).
///
/// s_server ends at the end of its input, so its standard input is a pipe held open until `stop()`; its output is
/// read to the end on a thread of its own so it never blocks on a full pipe.
// @unchecked Sendable: every stored property is immutable after init; Process and the thread are only stopped.
public final class OpenSSLServer: @unchecked Sendable {
    public let host: String
    public let port: UInt16
    private let process: Process
    private let input: Pipe
    private let reader: JoinableThread
    private let stopping = StopFlag()

    /// Starts `openssl s_server -accept HOST:PORT ARGUMENTS` in `directory` (default certs/); port 0 lets the kernel
    /// choose. Returns once the server accepts.
    public init(_ arguments: [String], host: String = "127.0.0.1", port: UInt16 = 0,
                in directory: String = Certs.directory) throws {
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let accept = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        process.arguments = ["openssl", "s_server", "-accept", accept] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // s_server prints "ACCEPT 127.0.0.1:40123" once it listens on a port it chose, a bare "ACCEPT" on a port it
        // was given; everything before it is kept for the error.
        let fd = output.fileHandleForReading.fileDescriptor
        var seen: [UInt8] = []
        var found: UInt16?
        let end = Date().addingTimeInterval(10)
        while found == nil, Date() < end {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            seen += buffer.prefix(count)
            let text = String(decoding: seen, as: UTF8.self)
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }) else { continue }
            if port != 0 {
                found = port
            } else if let colon = line.lastIndex(of: ":") {
                found = UInt16(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
        }
        guard let found else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestServerError("openssl s_server \(arguments.joined(separator: " ")) did not start: "
                + String(decoding: seen, as: UTF8.self))
        }
        self.host = host
        self.port = found
        self.process = process
        self.input = input
        // Not read to its end: a server started at the same moment by another test can inherit the pipe's write
        // end, so the end may come late. The reader drains until told to stop.
        let done = stopping
        reader = JoinableThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !done.isSet {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 50) > 0 else { continue }
                if buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) <= 0 { return }
            }
        }
    }

    deinit { stop() }

    /// Ends the server and waits for it; idempotent.
    public func stop() {
        guard stopping.set() else { return }
        // SIGKILL: the test runner's threads block SIGTERM, and a child started from one inherits that mask.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        reader.join()
    }
}

/// A flag set once, read from any thread.
// @unchecked Sendable: `value` is guarded by `lock`.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    /// True for the first caller only.
    func set() -> Bool { lock.withLock { defer { value = true }; return !value } }
}
