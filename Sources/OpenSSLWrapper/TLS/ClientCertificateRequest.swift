internal import COpenSSL

/// Notices whether the server asked for a client certificate during one handshake, and answers with none.
///
/// pinctl has no certificate to send. A server that requires one ends the handshake after it has presented its own
/// chain (TLS 1.2), or refuses the connection once the client's side is done (TLS 1.3): knowing that it asked is
/// what tells that failure apart from a broken server, and lets the chain it sent still be judged.
final class ClientCertificateRequest {
    /// Whether the server sent a CertificateRequest in this handshake.
    private(set) var wasReceived = false

    /// Installs the observer on one SSL, which borrows `self` unretained: keep it alive until SSL_free has run.
    func observe(_ ssl: OpaquePointer) {
        // Per SSL, not on the shared SSL_CTX: the argument points at this handshake's observer alone.
        SSL_set_cert_cb(ssl, noticeRequest, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func record() { wasReceived = true }
}

/// On a client OpenSSL 3.0 calls the cert callback only to answer a CertificateRequest
/// (tls_prepare_client_certificate), which comes after the server's Certificate message in TLS 1.2 and after its
/// Finished in TLS 1.3. Returning 1 with no certificate set goes on with an empty Certificate message; 0 would abort
/// the handshake with an internal error.
private let noticeRequest: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { _, argument in
    guard let argument else { return 1 }
    Unmanaged<ClientCertificateRequest>.fromOpaque(argument).takeUnretainedValue().record()
    return 1
}
