internal import COpenSSL
import Glibc

/// What the peer did on the socket during a handshake, recorded at the system call by `SocketBIO`.
///
/// OpenSSL's own socket BIO writes with write(2), which raises SIGPIPE on a closed peer, keeps no copy of what it
/// read, and leaves errno to be read after OpenSSL has made other calls. This BIO sends with MSG_NOSIGNAL, keeps
/// the first bytes received (to tell "not a TLS server" apart and quote what it said) and captures errno at once.
final class SocketTrace {
    /// How many of the first received bytes are kept.
    static let keptBytes = 512

    let fd: Int32
    /// The first bytes the peer sent, up to `keptBytes`.
    private(set) var firstBytes: [UInt8] = []
    /// Bytes received in all.
    private(set) var received = 0
    /// Whether the peer closed its side (recv returned 0).
    fileprivate(set) var sawEndOfFile = false
    /// errno of the first failed recv or send, 0 if none.
    fileprivate(set) var failure: Int32 = 0

    init(fd: Int32) { self.fd = fd }

    fileprivate func record(_ buffer: UnsafeRawBufferPointer) {
        received += buffer.count
        let room = Self.keptBytes - firstBytes.count
        if room > 0 { firstBytes.append(contentsOf: buffer.prefix(room)) }
    }

    fileprivate func fail(_ code: Int32) {
        if failure == 0 { failure = code }
    }

    /// After a failed handshake: adds whatever the peer sent that OpenSSL has not read, without waiting, so a
    /// message can quote a whole first line ("HTTP/1.1 400 Bad Request") where OpenSSL stopped after 5 bytes.
    func collectUnread() {
        var buffer = [UInt8](repeating: 0, count: Self.keptBytes)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard count > 0 else { return }
        buffer.withUnsafeBytes { record(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }
}

/// A `BIO` over a non-blocking socket that reports to a `SocketTrace`.
enum SocketBIO {
    /// A new BIO (+1, for SSL_set_bio to take) that reads and writes `trace.fd`; nil on allocation failure.
    ///
    /// The BIO borrows `trace` unretained: the caller keeps it alive until the SSL owning the BIO is freed.
    static func make(_ trace: SocketTrace) -> OpaquePointer? {
        guard let method = socketMethod, let bio = BIO_new(method) else { return nil }
        BIO_set_data(bio, Unmanaged.passUnretained(trace).toOpaque())
        BIO_set_init(bio, 1)
        return bio
    }
}

/// Created once and never freed: every BIO made from it points at it, and OpenSSL only reads it.
nonisolated(unsafe) private let socketMethod: OpaquePointer? = {
    guard let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "pinctl socket") else { return nil }
    guard BIO_meth_set_read_ex(method, socketRead) == 1, BIO_meth_set_write_ex(method, socketWrite) == 1,
        BIO_meth_set_ctrl(method, socketControl) == 1
    else {
        BIO_meth_free(method)
        return nil
    }
    return method
}()

private func trace(of bio: OpaquePointer?) -> SocketTrace? {
    guard let bio, let data = BIO_get_data(bio) else { return nil }
    return Unmanaged<SocketTrace>.fromOpaque(data).takeUnretainedValue()
}

#if os(Linux)
private let sendFlags = Int32(MSG_NOSIGNAL)
#else
private let sendFlags: Int32 = 0
#endif

private let socketRead: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>?, Int, UnsafeMutablePointer<Int>?)
    -> Int32 = { bio, buffer, length, readBytes in
        guard let trace = trace(of: bio), let buffer, let readBytes else { return 0 }
        COpenSSLShim_BIO_clear_retry_flags(bio)
        while true {
            let count = recv(trace.fd, buffer, length, 0)
            if count > 0 {
                trace.record(UnsafeRawBufferPointer(start: buffer, count: count))
                readBytes.pointee = count
                return 1
            }
            if count == 0 {
                trace.sawEndOfFile = true
                return 0
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                COpenSSLShim_BIO_set_retry_read(bio)
            } else {
                trace.fail(code)
            }
            return 0
        }
    }

private let socketWrite: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int, UnsafeMutablePointer<Int>?)
    -> Int32 = { bio, buffer, length, written in
        guard let trace = trace(of: bio), let buffer, let written else { return 0 }
        COpenSSLShim_BIO_clear_retry_flags(bio)
        while true {
            let count = send(trace.fd, buffer, length, sendFlags)
            if count >= 0 {
                written.pointee = count
                return 1
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                COpenSSLShim_BIO_set_retry_write(bio)
            } else {
                trace.fail(code)
            }
            return 0
        }
    }

/// OpenSSL asks a BIO to flush after every flight and checks for end of file to tell "unexpected EOF" from other
/// errors; every other control has no meaning for a bare socket.
private let socketControl: @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int = {
    bio, command, _, _ in
    switch command {
    case BIO_CTRL_FLUSH: return 1
    case BIO_CTRL_EOF: return trace(of: bio)?.sawEndOfFile == true ? 1 : 0
    default: return 0
    }
}
