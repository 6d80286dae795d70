import Glibc

/// A connected, non-blocking TCP socket, owning its file descriptor.
package final class TCPConnection {
    package let fd: Int32
    /// The address this socket connected (or is connecting) to.
    package let peer: SocketAddress

    private init(fd: Int32, peer: SocketAddress) {
        self.fd = fd
        self.peer = peer
    }

    // The SSL using this descriptor is freed before its connection: SSL_set_bio/SSL_free never close it.
    deinit { close(fd) }

    /// This end's address as an SMTP address literal (RFC 5321 §4.1.3): "[192.0.2.1]", "[IPv6:2001:db8::1]".
    package var localAddressLiteral: String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let address = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> SocketAddress? in
                guard getsockname(fd, raw, &length) == 0 else { return nil }
                return SocketAddress(raw, length: length)
            }
        }
        guard let address else { return "[127.0.0.1]" }
        return address.family == AF_INET6 ? "[IPv6:\(address.host)]" : "[\(address.host)]"
    }

    /// Connects to each address in turn until one accepts, all within `deadline`.
    ///
    /// When every address fails, the error is the last one's: with "localhost" resolving to ::1 then 127.0.0.1,
    /// that is the one the user most likely meant.
    package static func connect(
        to addresses: [SocketAddress], target: TargetName, deadline: Deadline
    ) throws(TLSConnectionError) -> TCPConnection {
        var lastFailure = TLSConnectionError(.refused, "cannot connect to \(target): no address to try")
        for address in addresses {
            guard !deadline.hasPassed else { throw timeout(target, tried: address, deadline) }
            switch attempt(address, deadline: deadline) {
            case .success(let connection):
                return connection
            case .failure(let code) where code.value == ETIMEDOUT:
                throw timeout(target, tried: address, deadline)
            case .failure(let code):
                lastFailure = failure(code, target: target, address: address)
            }
        }
        throw lastFailure
    }

    /// One non-blocking connect; `ETIMEDOUT` stands for the deadline passing as well as the kernel giving up.
    private static func attempt(_ address: SocketAddress, deadline: Deadline) -> Result<TCPConnection, Errno> {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(address.family, type, 0)
        guard fd >= 0 else { return .failure(Errno(errno)) }
        // Owned from here: every early return below closes the descriptor.
        let connection = TCPConnection(fd: fd, peer: address)
        let result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        if result == 0 { return .success(connection) }
        let code = errno
        // EINTR leaves the connect running in the background, exactly like EINPROGRESS.
        guard code == EINPROGRESS || code == EINTR else { return .failure(Errno(code)) }
        switch SocketWait.wait(fd, for: Int32(POLLOUT), until: deadline) {
        case .timedOut:
            return .failure(Errno(ETIMEDOUT))
        case .failed(let code):
            return .failure(Errno(code))
        case .ready:
            var status: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &status, &length) == 0 else { return .failure(Errno(errno)) }
            return status == 0 ? .success(connection) : .failure(Errno(status))
        }
    }

    private static func timeout(
        _ target: TargetName, tried address: SocketAddress, _ deadline: Deadline
    ) -> TLSConnectionError {
        let detail = address.description == target.description ? "" : " (trying \(address))"
        return TLSConnectionError(.timeout, "no TCP connection to \(target) within \(deadline.allowance)\(detail)")
    }

    private static func failure(_ code: Errno, target: TargetName, address: SocketAddress) -> TLSConnectionError {
        let detail = address.description == target.description ? "" : " (\(address))"
        switch code.value {
        case ECONNREFUSED:
            return TLSConnectionError(.refused, "connection refused by \(target)\(detail)")
        case ECONNRESET, EPIPE:
            return TLSConnectionError(.reset, "connection to \(target)\(detail) reset while connecting")
        default:
            // Unreachable networks and hosts have no kind of their own: like a refusal, no TCP connection was made.
            return TLSConnectionError(.refused, "cannot connect to \(target)\(detail): \(code)")
        }
    }
}

/// An errno value read at the failing call, with its text.
package struct Errno: Error, CustomStringConvertible {
    package let value: Int32

    package init(_ value: Int32) { self.value = value }

    package var description: String { String(cString: strerror(value)) }
}
