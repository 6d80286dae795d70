import Glibc
import TextSyntax
import Transport

/// Where a revocation fetch may go. The OCSP and CRL URLs come from the certificate the checked server presented, so
/// the server chooses them: a URL with a line break would add headers or a whole second request to what pinctl
/// sends (request smuggling), and a host inside the network pinctl runs in would make pinctl its messenger there
/// (SSRF: a cloud's metadata service at 169.254.169.254, an admin page on loopback).
package struct RevocationDestination: Sendable {
    /// Whether loopback, private, link-local and other non-public addresses may be fetched from
    /// (`--revocation-allow-private`).
    /// - Warning: the checked server's certificate then decides which host inside your network pinctl connects to.
    package var allowsPrivateAddresses: Bool

    package init(allowsPrivateAddresses: Bool) { self.allowsPrivateAddresses = allowsPrivateAddresses }

    /// Why `url` cannot go into a request line, or nil: a control byte, a space, DEL or a byte that is not ASCII.
    /// Percent-encoding is how a URL carries any of them; a certificate that writes them raw is refused whole.
    package static func unsafeByte(in url: String) -> String? {
        guard let index = url.utf8.firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F }) else { return nil }
        let byte = url.utf8[index]
        let name = switch byte {
        case 0x0D: "a carriage return"
        case 0x0A: "a line feed"
        case 0x20: "a space"
        case 0x7F: "DEL"
        case 0x80...: "a byte that is not ASCII"
        default: "a control character"
        }
        let offset = url.utf8.distance(from: url.utf8.startIndex, to: index)
        return "it holds \(name) (0x\(Hex.number(UInt32(byte), digits: 2))) at byte \(offset), which no request line may carry"
    }

    /// The non-public range `address` is in when a connection to it is refused ("a loopback address
    /// (127.0.0.0/8)"), or nil when it is public or private addresses are allowed.
    package func refusedRange(of address: SocketAddress) -> String? {
        allowsPrivateAddresses ? nil : NonPublicRange.of(address.ipBytes)
    }

    /// Through a proxy, the proxy resolves the URL's host and pinctl never learns the address: only an IP literal
    /// (in any form `inet_aton` reads, as proxies accept "2130706433") and the names RFC 6761 reserves for loopback
    /// can be refused here. Any other name is the proxy's to resolve, and its own rules to apply.
    package func refusal(ofProxiedHost host: String) -> String? {
        guard !allowsPrivateAddresses, !host.utf8.contains(0) else { return nil }
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") {
            return "\(host) names loopback (RFC 6761)"
        }
        var v4 = in_addr()
        var v6 = in6_addr()
        let bytes: [UInt8]
        if inet_aton(host, &v4) != 0 {
            bytes = withUnsafeBytes(of: v4.s_addr) { Array($0) }
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        } else {
            return nil
        }
        return NonPublicRange.of(bytes).map { "\(host) is \($0)" }
    }
}

extension SocketAddress {
    /// The address's 4 or 16 bytes, in network order.
    var ipBytes: [UInt8] {
        withSockaddr { address, _ in
            // The family says which sockaddr it is: SocketAddress holds only these two, copied at their full size.
            if Int32(address.pointee.sa_family) == AF_INET {
                return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin_addr.s_addr) { Array($0) }
                }
            }
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
            }
        }
    }
}
