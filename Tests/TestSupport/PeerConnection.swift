import Foundation
import Glibc

/// One accepted (non-blocking) connection, owning its descriptor; every wait also ends when the listener stops.
final class PeerConnection {
    let fd: Int32
    private let wake: WakePipe

    init(fd: Int32, wake: WakePipe) {
        self.fd = fd
        self.wake = wake
    }

    deinit { close(fd) }

    /// True when the server is stopping: handlers give up at once.
    var isStopping: Bool {
        var entry = pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Waits until the socket has `events`, at most `seconds`; false on timeout or when the server stops.
    func wait(for events: Int32, seconds: Double) -> Bool {
        let end = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while true {
            let left = end - .now
            guard left > .zero else { return false }
            let (whole, fraction) = left.components
            let milliseconds = Int32(clamping: whole * 1000 + fraction / 1_000_000_000_000_000 + 1)
            var entries = [pollfd(fd: fd, events: Int16(events), revents: 0),
                           pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&entries, 2, milliseconds)
            if ready < 0 && errno != EINTR { return false }
            if entries[1].revents != 0 { return false }
            if entries[0].revents != 0 { return true }
        }
    }

    /// Holds the connection open, doing nothing, until the server stops or `seconds` pass.
    func holdUntilStopped(seconds: Double) {
        var entry = pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, Int32(seconds * 1000))
    }

    /// What the client sent first (its ClientHello): reads until it pauses for 50 ms, at most `seconds` in all.
    func readFirstFlight(seconds: Double) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        guard wait(for: Int32(POLLIN), seconds: seconds) else { return received }
        repeat {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer.prefix(count)
        } while wait(for: Int32(POLLIN), seconds: 0.05)
        return received
    }

    /// Sends all of `bytes` (without SIGPIPE); false when the client is gone or too slow.
    @discardableResult
    func write(_ bytes: [UInt8], seconds: Double = 2) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            let code = errno
            if count > 0 {
                offset += count
            } else if count < 0, code == EAGAIN || code == EINTR {
                guard wait(for: Int32(POLLOUT), seconds: seconds) else { return false }
            } else {
                return false
            }
        }
        return true
    }

    /// Ends the sending side, then reads and drops what the client still sends until it closes (or `seconds`
    /// pass), so the close is an orderly FIN and the client reads everything sent before it, never an RST.
    func closeGracefully(seconds: Double = 1) {
        _ = shutdown(fd, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while wait(for: Int32(POLLIN), seconds: seconds) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
        }
    }

    /// Makes the coming close(2) abort the connection with an RST instead of a FIN.
    func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }
}
