import Glibc

/// One resolved IPv4 or IPv6 socket address, copied out of getaddrinfo's list so that list is freed at once.
public struct SocketAddress: Sendable, CustomStringConvertible {
    /// `AF_INET` or `AF_INET6`.
    package let family: Int32
    /// The raw `sockaddr_in` or `sockaddr_in6`.
    private let bytes: [UInt8]

    /// Copies `length` bytes of an IPv4 or IPv6 `sockaddr`; nil for any other family or a short length.
    init?(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        let family = Int32(address.pointee.sa_family)
        let expected: Int
        switch family {
        case AF_INET: expected = MemoryLayout<sockaddr_in>.size
        case AF_INET6: expected = MemoryLayout<sockaddr_in6>.size
        default: return nil
        }
        guard Int(length) >= expected else { return nil }
        self.family = family
        bytes = Array(UnsafeRawBufferPointer(start: address, count: expected))
    }

    /// Calls `body` with the address as connect(2) takes it; the pointer must not escape.
    package func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        bytes.withUnsafeBytes { raw in
            // The buffer was copied from a sockaddr of exactly this length; rebinding reads it back as one.
            raw.withMemoryRebound(to: sockaddr.self) { body($0.baseAddress!, socklen_t(raw.count)) }
        }
    }

    /// "127.0.0.1:443" or "[::1]:443", numeric, as messages and `TLSHandshakeResult.peerAddress` show it.
    public var description: String {
        let (name, port) = numeric
        return family == AF_INET6 ? "[\(name)]:\(port)" : "\(name):\(port)"
    }

    /// The address alone, numeric, without brackets: "127.0.0.1", "::1".
    public var host: String { numeric.host }

    private var numeric: (host: String, port: String) {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let result = withSockaddr { address, length in
            getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                        NI_NUMERICHOST | NI_NUMERICSERV)
        }
        guard result == 0 else { return ("(unprintable address: \(String(cString: gai_strerror(result))))", "?") }
        return (Self.text(host), Self.text(service))
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An IPv4 or IPv6 literal (brackets allowed) with a port; nil for anything else. No lookup is made.
    public init?(ipLiteral text: String, port: UInt16) {
        var literal = text
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        guard Self.isIPLiteral(literal) else { return nil }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(literal, String(port), &hints, &list) == 0 else { return nil }
        // The list is ours (+1): copied, then freed here.
        defer { freeaddrinfo(list) }
        guard let entry = list, let raw = entry.pointee.ai_addr,
            let address = SocketAddress(raw, length: entry.pointee.ai_addrlen)
        else { return nil }
        self = address
    }
}

extension SocketAddress {
    /// Whether `text` is an IPv4 or IPv6 literal (without brackets): such a host is never looked up.
    package static func isIPLiteral(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        // inet_pton reads a C string: a NUL would hide the rest of the name, so such a name is no address.
        return !text.utf8.contains(0) && (inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1)
    }
}
