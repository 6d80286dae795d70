import OpenSSLWrapper

/// The negotiated TLS parameters of a live check, and whether the server asked for a client certificate.
public struct TLSInfo: Sendable {
    public let version: String
    public let cipher: String
    public let clientCertificateRequested: Bool
    /// Why the handshake did not complete (the server asked for a client certificate and ended it); nil if it did.
    public let handshakeError: String?
    /// The SCTs the server sent in the TLS extension or an OCSP staple, when asked for (Apple's CT policy counts
    /// them beside those embedded in the leaf).
    public let sentSCTs: [[UInt8]]

    public init(_ result: TLSHandshakeResult) {
        version = result.protocolVersion
        cipher = result.cipher
        clientCertificateRequested = result.clientCertificateRequested
        handshakeError = result.handshakeFailure?.message
        sentSCTs = result.sentSCTs
    }

    /// The line that explains a client-certificate request, for the text outputs; nil when there was none.
    public var clientCertificateNote: String? {
        guard clientCertificateRequested else { return nil }
        let asked = "the server asked for a client certificate; pinctl sent none"
        guard let handshakeError else {
            // In TLS 1.3 a server that requires one objects only after the client's side is done.
            return asked + " and completed its side of the handshake"
        }
        return asked + " and the handshake did not complete (\(handshakeError)), after the server had sent its chain"
    }
}
