internal import COpenSSL
import Transport

/// The client `SSL_CTX*` every handshake starts from, owning it.
///
/// It verifies nothing (`SSL_VERIFY_NONE`): the handshake only collects what the server presents, and the
/// PolicyEngine judges the chain afterwards with the user's anchors, time and policy.
// @unchecked Sendable: configured completely in init and only read afterwards (SSL_new), which OpenSSL allows from
// any number of threads at once.
final class TLSContext: @unchecked Sendable {
    static let maximumCertificates = ChainBounds.maximumCertificates
    static let maximumChainBytes = ChainBounds.maximumBytes
    /// What OpenSSL may buffer for the Certificate message: the DER limit plus the per-certificate framing
    /// (3-byte lengths, TLS 1.3 extension blocks), so our own limits decide and give the clearer message.
    static let maximumCertificateMessage = maximumChainBytes + 64 * 1024

    let pointer: OpaquePointer

    /// One context for the whole process: SSL_CTX_new is costly in OpenSSL 3 and `check` runs targets concurrently.
    static let client: Result<TLSContext, TLSConnectionError> = Result { () throws(TLSConnectionError) in
        try TLSContext()
    }

    private init() throws(TLSConnectionError) {
        // libssl parses every certificate a server presents.
        BuiltinKeyMethods.install()
        OpenSSLError.clearQueue()
        guard let method = TLS_client_method(), let context = SSL_CTX_new(method) else {
            throw Self.setupFailure("SSL_CTX_new")
        }
        // Owned from here: deinit frees it if the configuration below fails.
        pointer = context
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        // With SSL_VERIFY_NONE libssl still runs X509_verify_cert on every chain a server presents (against this
        // context's empty store) and ignores the result: 2% of a probe's CPU in `pinctl serve` (issue #22). The chain
        // is judged afterwards, with the user's anchors, time and policy. SSL_get_verify_result then reads X509_V_OK
        // for a chain nothing verified: it must never be read as evidence, and nothing reads it.
        SSL_CTX_set_cert_verify_callback(context, skipLibsslVerification, nil)
        guard COpenSSLShim_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1 else {
            throw Self.setupFailure("set the minimum protocol version")
        }
        // set_max_cert_list returns the previous limit, not a status: there is nothing to check.
        _ = COpenSSLShim_SSL_CTX_set_max_cert_list(context, Self.maximumCertificateMessage)
        // Read what the socket holds at once rather than each record's 5-byte header and then its body: a TLS 1.3
        // server's flight is six records, 15 recv calls a handshake without this and 3 with it (issue #22). The
        // socket BIO still records every byte read, so a failed handshake quotes the same bytes. Returns the old
        // setting, not a status.
        _ = COpenSSLShim_SSL_CTX_set_read_ahead(context, 1)
    }

    deinit { SSL_CTX_free(pointer) }

    private static func setupFailure(_ operation: String) -> TLSConnectionError {
        TLSConnectionError(.handshake, "cannot set up TLS: \(OpenSSLError.drain(operation))")
    }
}

/// In place of libssl's own X509_verify_cert of the presented chain (`SSL_CTX_set_cert_verify_callback`): 1, "go on",
/// as SSL_VERIFY_NONE goes on whatever that verification says.
private let skipLibsslVerification: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { _, _ in 1 }
