import Glibc

/// An IPv4 or IPv6 loopback socket address for the test peers.
struct LoopbackAddress {
    let family: Int32
    private var storage = sockaddr_storage()
    private let length: socklen_t

    init(host: String, port: UInt16) throws(TestServerError) {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeBytes(of: &v4) { source in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) } }
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeBytes(of: &v6) { source in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) } }
        } else {
            throw TestServerError("not an IP literal: \(host)")
        }
    }

    private init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
        family = Int32(storage.ss_family)
    }

    /// The address a socket is bound to (after binding port 0, the port the kernel chose).
    static func bound(to fd: Int32) -> LoopbackAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return result == 0 ? LoopbackAddress(storage: storage, length: length) : nil
    }

    var port: UInt16 {
        var copy = storage
        return withUnsafeBytes(of: &copy) { raw in
            // sin_port and sin6_port sit at the same offset, right after the family.
            UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: MemoryLayout<sa_family_t>.size, as: UInt16.self))
        }
    }

    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var copy = storage
        return withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
