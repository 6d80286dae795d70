import Foundation
import Glibc
import Synchronization

/// An HTTP proxy on loopback: CONNECT tunnels and absolute-form requests (`GET http://…`), both relayed to the
/// origin, or one of the ways a proxy fails.
///
/// Names are resolved from `hosts` only (a test name such as pinning.test is unknown to DNS), so a connection that
/// works through the proxy proves pinctl sent the name unresolved.
// @unchecked Sendable: immutable after init except `log`, which is guarded by its lock.
public final class TestProxy: @unchecked Sendable {
    public enum Behaviour: Sendable, Equatable {
        /// Relays every request.
        case relays
        /// Relays only requests with `Proxy-Authorization: Basic base64(user:password)`; 407 to the others.
        case requiresCredentials(user: String, password: String)
        /// Answers every request with this status line and no tunnel.
        case answers(String)
        /// Reads the request, then closes.
        case closes
        /// Reads the request, then never answers.
        case silent
        /// Reads the request, then sends bytes that are not HTTP.
        case garbage
    }

    public let port: UInt16
    private let listener: LoopbackListener
    private let log: RequestLog

    /// Request lines received, in order ("CONNECT pinning.test:443 HTTP/1.1"), with the Proxy-Authorization value.
    public var requests: [(line: String, authorization: String?)] { log.entries }

    /// Connections accepted, whether or not they sent a request.
    public var connections: Int { log.connections }

    public init(_ behaviour: Behaviour = .relays, hosts: [String: String] = [:]) throws {
        signal(SIGPIPE, SIG_IGN)
        let log = RequestLog()
        self.log = log
        listener = try LoopbackListener(host: "127.0.0.1")
        port = listener.port
        listener.start { connection in Self.serve(connection, behaviour: behaviour, hosts: hosts, log: log) }
    }

    deinit { stop() }

    public func stop() { listener.stop() }

    /// "http://127.0.0.1:PORT", with credentials when given.
    public func url(user: String? = nil, password: String? = nil) -> String {
        let credentials = user.map { "\($0):\(password ?? "")@" } ?? ""
        return "http://\(credentials)127.0.0.1:\(port)"
    }

    private static func serve(_ client: PeerConnection, behaviour: Behaviour, hosts: [String: String], log: RequestLog) {
        log.connected()
        guard let head = readHead(client) else { return }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first ?? ""
        let authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
        log.add(requestLine, authorization)
        switch behaviour {
        case .relays:
            break
        case .requiresCredentials(let user, let password):
            let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            guard authorization == expected else {
                client.write(Array(("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic "
                    + "realm=\"test\"\r\nContent-Length: 0\r\n\r\n").utf8))
                client.closeGracefully()
                return
            }
        case .answers(let status):
            client.write(Array("\(status)\r\nContent-Length: 0\r\n\r\n".utf8))
            client.closeGracefully()
            return
        case .closes:
            return
        case .silent:
            client.holdUntilStopped(seconds: HostilePeer.holdSeconds)
            return
        case .garbage:
            client.write([0x01, 0xFF, 0x00, 0x7F] + Array("\u{1B}[2J not http".utf8))
            client.closeGracefully()
            return
        }
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3 else { return }
        if parts[0] == "CONNECT" {
            guard let origin = connect(String(parts[1]), hosts: hosts) else {
                client.write(Array("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n".utf8))
                client.closeGracefully()
                return
            }
            client.write(Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
            relay(client, origin)
        } else {
            // Absolute form: "POST http://127.0.0.1:8080/ocsp HTTP/1.0" is sent on as "POST /ocsp HTTP/1.0".
            guard let url = URL(string: String(parts[1])), let host = url.host, let port = url.port,
                let origin = connect("\(host):\(port)", hosts: hosts)
            else { return }
            let path = url.path.isEmpty ? "/" : url.path
            var rewritten = Array("\(parts[0]) \(path) \(parts[2])\r\n".utf8)
            rewritten += head.drop { $0 != 0x0A }.dropFirst()
            origin.write(rewritten)
            relay(client, origin)
        }
    }

    /// The request line and headers, through the blank line; nil if the client gives up.
    private static func readHead(_ client: PeerConnection) -> [UInt8]? {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        // One byte at a time, so nothing after the blank line (a request body, a ClientHello) is taken from the
        // stream the relay hands on.
        while !head.suffix(4).elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) {
            guard head.count < 16 * 1024, client.wait(for: Int32(POLLIN), seconds: 5),
                recv(client.fd, &byte, 1, 0) == 1
            else { return nil }
            head.append(byte)
        }
        return head
    }

    /// A connection to "host:port", the host mapped through `hosts` first.
    private static func connect(_ authority: String, hosts: [String: String]) -> PeerConnection? {
        guard let colon = authority.lastIndex(of: ":"), let port = UInt16(authority[authority.index(after: colon)...])
        else { return nil }
        var host = String(authority[..<colon])
        if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
        host = hosts[host] ?? host
        guard let address = try? LoopbackAddress(host: host, port: port) else { return nil }
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 else {
            close(fd)
            return nil
        }
        // The origin's connection ends with the client's, so its own wake pipe is never signalled.
        guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0, let wake = try? WakePipe() else {
            close(fd)
            return nil
        }
        return PeerConnection(fd: fd, wake: wake)
    }

    /// Copies bytes both ways until either side closes (or 10 s pass).
    private static func relay(_ a: PeerConnection, _ b: PeerConnection) {
        let end = Date().addingTimeInterval(HostilePeer.holdSeconds)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while Date() < end, !a.isStopping {
            var entries = [pollfd(fd: a.fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: b.fd, events: Int16(POLLIN), revents: 0)]
            guard poll(&entries, 2, 100) >= 0 else { return }
            for (index, (from, to)) in [(a, b), (b, a)].enumerated() where entries[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { recv(from.fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                guard to.write(Array(buffer.prefix(count))) else { return }
            }
        }
    }
}

/// The requests a proxy received.
private final class RequestLog: Sendable {
    private let stored = Mutex<[(line: String, authorization: String?)]>([])
    private let accepted = Mutex(0)

    var entries: [(line: String, authorization: String?)] { stored.withLock { $0 } }

    func add(_ line: String, _ authorization: String?) { stored.withLock { $0.append((line, authorization)) } }

    var connections: Int { accepted.withLock { $0 } }

    func connected() { accepted.withLock { $0 += 1 } }
}
