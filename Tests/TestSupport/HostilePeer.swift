import Foundation
import Glibc
import Synchronization

/// A loopback peer that misbehaves in one specific way, for testing how a TLS client fails.
///
/// Every behaviour is bounded: a connection is held at most `holdSeconds`, and `stop()` ends every wait at once.
// @unchecked Sendable: all stored properties are immutable after init; the listener and server lock their own state.
public final class HostilePeer: @unchecked Sendable {
    public enum Behaviour: String, Sendable, CaseIterable {
        /// Accepts, then never sends a byte.
        case silent
        /// Listens with a full backlog and never accepts: connecting times out.
        case neverAccepts
        /// Answers the ClientHello like a web server: "HTTP/1.1 400 Bad Request".
        case plainHTTP
        /// Answers with 4 KiB of random bytes that are not a TLS record.
        case randomBytes
        /// Accepts, then aborts the connection with an RST.
        case reset
        /// Reads the ClientHello, sends the first 6 bytes of a ServerHello record, then stalls.
        case stallMidHandshake
        /// A real TLS server presenting `hugeChainLength` certificates.
        case hugeChain
    }

    /// Certificates in the `.hugeChain` chain: the leaf and the intermediate repeated.
    public static let hugeChainLength = 40
    /// The most any connection is held open.
    public static let holdSeconds = 10.0
    /// The bytes `.stallMidHandshake` sends: a handshake record header (type 22, TLS 1.2, 122 bytes) and the
    /// ServerHello message type, then nothing.
    public static let stalledServerHello: [UInt8] = [0x16, 0x03, 0x03, 0x00, 0x7A, 0x02]
    public static let httpAnswer = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)

    public let behaviour: Behaviour
    public let port: UInt16
    private let listener: LoopbackListener?
    private let server: TLSTestServer?
    /// Connections `.neverAccepts` keeps in its backlog so that later SYNs are dropped.
    private let parked: [Int32]

    public init(_ behaviour: Behaviour, host: String = "127.0.0.1") throws {
        signal(SIGPIPE, SIG_IGN)
        self.behaviour = behaviour
        switch behaviour {
        case .hugeChain:
            let chain = [Certs.path("leaf.pem")] + Array(repeating: Certs.path("intermediate-ca.pem"),
                                                         count: Self.hugeChainLength - 1)
            let server = try TLSTestServer(chainPEM: chain, keyPath: Certs.path("leaf.key"), host: host)
            (self.server, listener, parked, port) = (server, nil, [], server.port)
        case .neverAccepts:
            let listener = try LoopbackListener(host: host, backlog: 0)
            let parked = try Backlog.fill(host: host, port: listener.port)
            (server, self.listener, self.parked, port) = (nil, listener, parked, listener.port)
        default:
            let listener = try LoopbackListener(host: host)
            listener.start { connection in Self.misbehave(behaviour, on: connection) }
            (server, self.listener, parked, port) = (nil, listener, [], listener.port)
        }
    }

    deinit { stop() }

    /// Ends every connection and closes the listener; idempotent, also run by deinit.
    public func stop() {
        listener?.stop()
        server?.stop()
        // Closing a descriptor twice could close someone else's: only the first stop closes them.
        if parkedClosed.set() { parked.forEach { close($0) } }
    }

    private let parkedClosed = OnceFlag()

    /// A loopback port nothing listens on: bound to get a free port from the kernel, then closed unlistened.
    public static func refusedPort(host: String = "127.0.0.1") throws -> UInt16 {
        let address = try LoopbackAddress(host: host, port: 0)
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestServerError.system("socket") }
        defer { close(fd) }
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0, let bound = LoopbackAddress.bound(to: fd) else {
            throw TestServerError.system("bind \(host)")
        }
        return bound.port
    }

    private static func misbehave(_ behaviour: Behaviour, on connection: PeerConnection) {
        switch behaviour {
        case .silent:
            connection.holdUntilStopped(seconds: holdSeconds)
        case .plainHTTP:
            _ = connection.readFirstFlight(seconds: 2)
            connection.write(httpAnswer)
            connection.closeGracefully()
        case .randomBytes:
            var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255) }
            // A control byte first: never a TLS record type (20–24) nor printable text, which the client would
            // quote as an answer ("it answered '…'"), so the diagnosis cannot flake.
            bytes[0] = 0x01
            _ = connection.readFirstFlight(seconds: 2)
            connection.write(bytes)
            connection.closeGracefully()
        case .reset:
            // Wait for the ClientHello so the RST always meets a client reading its answer.
            _ = connection.wait(for: Int32(POLLIN), seconds: 2)
            connection.resetOnClose()
        case .stallMidHandshake:
            _ = connection.readFirstFlight(seconds: 2)
            connection.write(stalledServerHello)
            connection.holdUntilStopped(seconds: holdSeconds)
        case .neverAccepts, .hugeChain:
            break
        }
    }
}

/// A flag that can be set once, from any thread.
private final class OnceFlag: Sendable {
    private let value = Mutex(false)

    /// True for the first caller only.
    func set() -> Bool {
        value.withLock { isSet in
            defer { isSet = true }
            return !isSet
        }
    }
}

/// Fills a listener's accept queue with parked connections, so the kernel drops any further SYN.
private enum Backlog {
    /// Connects until one connect does not complete within `probeSeconds`: the queue is then full (on Linux,
    /// `listen(fd, 0)` queues one connection). Returns the parked descriptors; the caller closes them.
    static func fill(host: String, port: UInt16, probeSeconds: Double = 0.3) throws -> [Int32] {
        let address = try LoopbackAddress(host: host, port: port)
        var parked: [Int32] = []
        for _ in 0..<8 {
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(address.family, type, 0)
            guard fd >= 0 else { break }
            let result = address.withSockaddr { connect(fd, $0, $1) }
            if result == 0 || (errno == EINPROGRESS && connected(fd, within: probeSeconds)) {
                parked.append(fd)
                continue
            }
            close(fd)
            return parked
        }
        parked.forEach { close($0) }
        throw TestServerError("the backlog of \(host):\(port) never filled: connects keep succeeding")
    }

    private static func connected(_ fd: Int32, within seconds: Double) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, Int32(seconds * 1000)) > 0 else { return false }
        var status: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &status, &length) == 0 && status == 0
    }
}
