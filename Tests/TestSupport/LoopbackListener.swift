import Foundation
import Glibc
import Transport
import Synchronization

/// Why a test server or hostile peer could not be set up.
public struct TestServerError: Error, CustomStringConvertible, Sendable {
    public let message: String

    public var description: String { message }

    init(_ message: String) { self.message = message }

    /// A failed system call, with errno read at once.
    static func system(_ call: String) -> TestServerError {
        TestServerError("\(call) failed: \(String(cString: strerror(errno)))")
    }
}

/// A TCP listener on a loopback address; once started, one background thread accepts connections and hands them
/// to a handler one at a time, until `stop()`.
///
/// Handlers run on that thread: each must bound its own waits (`PeerConnection` waits end when the listener
/// stops), so `stop()` returns promptly however the client behaved.
// @unchecked Sendable: `state` is a Mutex; everything else is immutable.
final class LoopbackListener: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private let wake: WakePipe
    /// The accepting thread, and whether `stop()` has run.
    private let state = Mutex<(thread: JoinableThread?, stopped: Bool)>((nil, false))

    /// Binds `host` ("127.0.0.1" or "::1") on `port` (0: an ephemeral one) and listens; nothing is accepted until
    /// `start`.
    init(host: String, port: UInt16 = 0, backlog: Int32 = 16) throws(TestServerError) {
        var address = try LoopbackAddress(host: host, port: port)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(address.family, type, 0)
        guard fd >= 0 else { throw .system("socket") }
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            let error = TestServerError.system("bind \(host)")
            close(fd)
            throw error
        }
        guard listen(fd, backlog) == 0, let bound = LoopbackAddress.bound(to: fd) else {
            let error = TestServerError.system("listen on \(host)")
            close(fd)
            throw error
        }
        address = bound
        do {
            wake = try WakePipe()
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
        self.port = address.port
    }

    deinit { stop() }

    /// Starts the accepting thread; call at most once.
    func start(handler: @escaping @Sendable (PeerConnection) -> Void) {
        // The thread captures what it needs, not `self`, so an abandoned listener still reaches deinit and stops.
        let body: @Sendable () -> Void = { [fd, wake] in
            while true {
                var entries = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&entries, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if entries[1].revents != 0 { return }
                guard entries[0].revents != 0 else { continue }
                let accepted = accept(fd, nil, nil)
                // EAGAIN or ECONNABORTED: the client gave up between poll and accept.
                guard accepted >= 0 else { continue }
                // accept4 is a GNU extension Swift's Glibc module does not show; set the flags in two steps.
                guard fcntl(accepted, F_SETFD, FD_CLOEXEC) == 0,
                    fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL) | O_NONBLOCK) == 0
                else {
                    close(accepted)
                    continue
                }
                handler(PeerConnection(fd: accepted, wake: wake))
            }
        }
        // Started under the lock, so that a stop() from another thread either sees it, and joins it, or came first.
        state.withLock { state in
            guard !state.stopped else { return }
            state.thread = JoinableThread(body)
        }
    }

    /// Wakes every wait, joins the accepting thread and closes the socket; idempotent.
    func stop() {
        let running: JoinableThread?? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            return .some(state.thread)
        }
        guard let running else { return }
        wake.signal()
        running?.join()
        close(fd)
    }
}

/// A pipe that becomes readable, and stays so, once the owner stops: every wait of a test peer polls it.
final class WakePipe: Sendable {
    let fd: Int32
    private let writeFD: Int32

    init() throws(TestServerError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .system("pipe") }
        fd = ends[0]
        writeFD = ends[1]
        // pipe2 is a GNU extension Swift's Glibc module does not show; a full pipe must not block signal().
        for end in ends {
            guard fcntl(end, F_SETFD, FD_CLOEXEC) == 0, fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) == 0
            else {
                let error = TestServerError.system("fcntl on a pipe")
                close(ends[0])
                close(ends[1])
                throw error
            }
        }
    }

    deinit {
        close(fd)
        close(writeFD)
    }

    /// One byte, never read: the pipe stays readable for every later poll.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }
}
