/// Which IP versions name resolution may return (`-4`, `-6`).
public enum AddressFamily: Sendable {
    /// IPv4 and IPv6, in the resolver's order.
    case any
    /// IPv4 only (`-4`).
    case ipv4
    /// IPv6 only (`-6`).
    case ipv6
}

/// Why no certificate chain could be obtained from a server: the `error` verdicts of DESIGN §2 (exit 3).
public struct TLSConnectionError: Error, Sendable, CustomStringConvertible {
    /// The failure class; the raw value is the JSON `reason.code`.
    public enum Kind: String, Sendable {
        /// The name could not be resolved (or not in the requested family).
        case dns
        /// No TCP connection: refused, or the network or host is unreachable.
        case refused
        /// The deadline passed while resolving, connecting or handshaking; the message says which.
        case timeout
        /// The peer reset or closed the connection during the handshake.
        case reset
        /// The peer answered with bytes that are not TLS records.
        case notTLS = "not-tls"
        /// The TLS handshake failed: an alert, no common protocol or cipher, an absurd certificate chain.
        case handshake
        /// The handshake completed but the server presented no certificate.
        case noCertificate = "no-certificate"
        /// The HTTP proxy could not be reached, or refused or failed the CONNECT; the message names it.
        case proxy
        /// The STARTTLS upgrade before the handshake failed: not offered, refused, or a peer that broke off.
        case startTLS = "starttls"
    }

    public let kind: Kind
    /// One human-readable line naming the target, e.g. "connection refused by 127.0.0.1:9".
    public let message: String

    public var description: String { message }

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

/// A host and port as messages name them: "example.com:443", "127.0.0.1:443", "[::1]:443".
package struct TargetName: CustomStringConvertible, Sendable {
    package let host: String
    package let port: UInt16

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
