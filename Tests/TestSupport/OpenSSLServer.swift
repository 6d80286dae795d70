import Foundation
import Glibc

/// An `openssl s_server` on a loopback address, for what the in-process server does not do: an RSA and an ECDSA
/// certificate at once (`-cert`/`-dcert`), one protocol version only, a stapled OCSP response (`-status_file`).
///
/// s_server ends at the end of its input, so its standard input is a pipe held open until `stop()`.
// @unchecked Sendable: every stored property is immutable after init; the process is only stopped.
public final class OpenSSLServer: @unchecked Sendable {
    public let host: String
    public let port: UInt16
    private let process: BackgroundProcess

    /// Starts `openssl s_server -accept HOST:PORT ARGUMENTS` in `directory` (default certs/); port 0 lets the kernel
    /// choose. Returns once the server accepts.
    public init(_ arguments: [String], host: String = "127.0.0.1", port: UInt16 = 0,
                in directory: String = Certs.directory) throws {
        signal(SIGPIPE, SIG_IGN)
        let accept = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let process = try BackgroundProcess("openssl", ["s_server", "-accept", accept] + arguments, in: directory,
                                            capture: .standardOutputAndError, keepsInputOpen: true)
        // s_server prints "ACCEPT 127.0.0.1:40123" once it listens on a port it chose, a bare "ACCEPT" on a port it
        // was given; everything before it is kept for the error.
        let found = process.waitForOutput(seconds: 10) { text -> UInt16? in
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }) else { return nil }
            if port != 0 { return port }
            guard let colon = line.lastIndex(of: ":") else { return nil }
            return UInt16(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        guard let found else {
            process.stop()
            throw TestServerError("openssl s_server \(arguments.joined(separator: " ")) did not start: "
                + process.output)
        }
        self.host = host
        self.port = found
        self.process = process
    }

    deinit { stop() }

    /// Ends the server and waits for it; idempotent.
    public func stop() { process.stop() }
}
