import Foundation
import Glibc

/// A client connection to the exporter that sends part of a request head and then nothing (slowloris), from a
/// loopback source address of the test's choosing (all of 127.0.0.0/8 is loopback on Linux), so one test can be
/// several clients.
final class StalledConnection {
    private let fd: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects from `source` to 127.0.0.1:`port` within 5 seconds and sends `bytes`.
    init(port: UInt16, from source: String, sending bytes: String = "GET /metrics HTTP/1.1\r\nHost: 127") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard Self.withAddress(source, port: 0, { bind(fd, $0, $1) }) == 0,
              Self.withAddress("127.0.0.1", port: port, { connect(fd, $0, $1) }) == 0
        else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect from \(source) to port \(port): \(message)")
        }
        _ = bytes.utf8CString.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    }

    deinit { close(fd) }

    /// Sends `bytes` more; false once the server has closed the connection whole (a reset, or a broken pipe).
    func send(_ bytes: String) -> Bool {
        bytes.utf8CString.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) } >= 0
    }

    /// What the server sent within `seconds`, read until it has sent `marker` or ended the stream.
    func received(within seconds: Double, until marker: String) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline, !String(decoding: received, as: UTF8.self).contains(marker) {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                break
            }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether the server closes the connection within `seconds`: the end of the stream, or a reset.
    func isClosedByServer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&entry, 1, left) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return true }
        }
        return false
    }

    private static func withAddress(_ host: String, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32)
        -> Int32
    {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Raises this process's open-file limit to `count` if the hard limit allows; whether it is now at least that.
    static func allowOpenFiles(_ count: Int) -> Bool {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return false }
        if limit.rlim_cur >= rlim_t(count) { return true }
        guard limit.rlim_max >= rlim_t(count) else { return false }
        limit.rlim_cur = rlim_t(count)
        return setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
    }
}
