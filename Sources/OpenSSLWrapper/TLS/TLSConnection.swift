/// Which IP versions name resolution may return (`-4`, `-6`).
public enum AddressFamily: Sendable {
    /// IPv4 and IPv6, in the resolver's order.
    case any
    /// IPv4 only (`-4`).
    case ipv4
    /// IPv6 only (`-6`).
    case ipv6
}

/// How `TLSClient` connects: the SNI to send, the time allowed, the address family.
public struct TLSConnectOptions: Sendable {
    /// The name sent as SNI; nil, an empty string or an IP literal sends no SNI (RFC 6066 forbids literals).
    public var serverName: String?
    /// Seconds allowed for resolution, TCP connect and TLS handshake together; a non-positive value fails at once.
    public var timeout: Double
    /// Which address families to resolve and connect to.
    public var family: AddressFamily

    public init(serverName: String?, timeout: Double, family: AddressFamily) {
        self.serverName = serverName
        self.timeout = timeout
        self.family = family
    }
}

/// What a TLS handshake showed: the chain as the server sent it, the negotiated parameters, and whether the server
/// asked for a client certificate.
public struct TLSHandshakeResult: Sendable {
    /// The certificates the server presented, leaf first, in the order sent; nothing verified yet.
    public let presented: [X509Certificate]
    /// The negotiated protocol version as OpenSSL names it, e.g. "TLSv1.3".
    public let protocolVersion: String
    /// The negotiated cipher suite as OpenSSL names it, e.g. "TLS_AES_128_GCM_SHA256".
    public let cipher: String
    /// The address the TCP connection reached, e.g. "127.0.0.1:8443" or "[::1]:8443".
    public let peerAddress: String
    /// Whether the server asked for a client certificate (a CertificateRequest); pinctl never sends one.
    ///
    /// In TLS 1.3 the client's side of the handshake completes before a server that requires a certificate can
    /// object, so `handshakeFailure` is nil there even when the server then refuses the connection.
    public let clientCertificateRequested: Bool
    /// Why the handshake did not complete, when the server asked for a client certificate, got none and ended it
    /// after presenting its chain; nil when the handshake completed.
    public let handshakeFailure: TLSConnectionError?

    /// Whether the client's side of the handshake completed.
    public var handshakeCompleted: Bool { handshakeFailure == nil }
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
    }

    public let kind: Kind
    /// One human-readable line naming the target, e.g. "connection refused by 127.0.0.1:9".
    public let message: String

    public var description: String { message }

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

/// A host and port as messages name them: "example.com:443", "127.0.0.1:443", "[::1]:443".
struct TargetName: CustomStringConvertible, Sendable {
    let host: String
    let port: UInt16

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
