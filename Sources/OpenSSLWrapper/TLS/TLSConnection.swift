// The sockets, names and errors TLSClient works with live in Transport; re-exported so that every user of the TLS
// client (the commands, the tests) sees them through this one import, as before they moved.
import Transport

/// How `TLSClient` connects: the SNI to send, the time allowed, the address family.
public struct TLSConnectOptions: Sendable {
    /// The name sent as SNI; nil, an empty string or an IP literal sends no SNI (RFC 6066 forbids literals).
    public var serverName: String?
    /// Seconds allowed for resolution, TCP connect and TLS handshake together; a non-positive value fails at once.
    public var timeout: Double
    /// Which address families to resolve and connect to.
    public var family: AddressFamily

    /// How the server is reached: fixed addresses, an HTTP proxy, a STARTTLS upgrade.
    public var route = Route()
    /// The only key type whose certificate the client accepts (`--key-types`); nil accepts RSA and ECDSA.
    public var keyType: CertificateKeyType?
    /// The only protocol version offered (`--tls`); nil offers TLS 1.2 and 1.3.
    public var version: TLSProtocolVersion?
    /// Whether to ask for a stapled OCSP response (the status_request extension).
    public var requestsOCSPStaple = false
    /// Whether to ask for the SCTs a server sends (RFC 6962 §3.3: the signed_certificate_timestamp extension, and
    /// in an OCSP staple, which OpenSSL then asks for too), as Apple's TLS clients do.
    public var requestsSCTs = false
    /// Where the certificates servers present are remembered, for a caller that meets them again and again (`pinctl
    /// serve`); nil reads every one afresh.
    public var certificateMemo: CertificateMemo?

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
    /// The OCSP response the server stapled (DER), when one was asked for and sent; nothing about it checked yet.
    public var stapledOCSPResponse: [UInt8]? = nil
    /// The SCTs the server sent in the TLS extension or an OCSP staple, each in RFC 6962's form, when they were
    /// asked for; nothing about them checked yet.
    public var sentSCTs: [[UInt8]] = []

    /// Whether the client's side of the handshake completed.
    public var handshakeCompleted: Bool { handshakeFailure == nil }
}
