internal import COpenSSL
import Transport

/// The certificates a server presented in its handshake, read out of an SSL and bounded.
enum PresentedChain {
    /// The peer's chain, leaf first, each certificate up-ref'd into its own `X509Certificate`, or the one `memo`
    /// remembers with the same DER.
    ///
    /// The limits are checked before anything is copied, so an absurd chain costs nothing and is an error, not a
    /// crash or an out-of-memory.
    static func read(from ssl: OpaquePointer, target: TargetName, memo: CertificateMemo?)
        throws(TLSConnectionError) -> [X509Certificate]
    {
        // get0: the stack and its certificates belong to the SSL until SSL_free; on the client side it starts with
        // the leaf.
        guard let stack = SSL_get_peer_cert_chain(ssl), COpenSSLShim_sk_X509_num(stack) > 0 else {
            throw TLSConnectionError(.noCertificate, "\(target) completed the TLS handshake without a certificate")
        }
        let count = Int(COpenSSLShim_sk_X509_num(stack))
        guard count <= TLSContext.maximumCertificates else {
            throw TLSConnectionError(
                .handshake,
                "\(target) presented \(count) certificates; more than \(TLSContext.maximumCertificates) is refused")
        }

        var pointers: [OpaquePointer] = []
        var totalBytes = 0
        for index in 0..<count {
            guard let x509 = COpenSSLShim_sk_X509_value(stack, Int32(index)) else {
                throw TLSConnectionError(.handshake, "\(target) presented an empty certificate slot #\(index)")
            }
            // i2d with no output buffer only measures the DER encoding.
            let length = i2d_X509(x509, nil)
            guard length > 0 else {
                throw TLSConnectionError(.handshake, "certificate #\(index) from \(target) cannot be re-encoded")
            }
            totalBytes += Int(length)
            pointers.append(x509)
        }
        guard totalBytes <= TLSContext.maximumChainBytes else {
            throw TLSConnectionError(
                .handshake,
                "\(target) presented \(totalBytes) bytes of certificates; more than 1 MiB is refused")
        }

        var certificates: [X509Certificate] = []
        for (index, x509) in pointers.enumerated() {
            guard let memo else {
                certificates.append(try wrap(x509, encoded: nil, index: index, target: target))
                continue
            }
            let der: [UInt8]
            do {
                der = try X509Certificate.encodedDER(of: x509)
            } catch {
                throw TLSConnectionError(.handshake, "certificate #\(index) from \(target) cannot be re-encoded")
            }
            certificates.append(try memo.certificate(der: der) { () throws(TLSConnectionError) in
                try wrap(x509, encoded: der, index: index, target: target)
            })
        }
        return certificates
    }

    /// A new `X509Certificate` holding a reference of its own to a certificate the SSL holds.
    private static func wrap(_ x509: OpaquePointer, encoded: [UInt8]?, index: Int, target: TargetName)
        throws(TLSConnectionError) -> X509Certificate
    {
        // The SSL keeps its reference; this new one belongs to the X509Certificate (which frees it on failure).
        guard X509_up_ref(x509) == 1 else {
            throw TLSConnectionError(.handshake, "cannot keep certificate #\(index) from \(target)")
        }
        do {
            return try X509Certificate(takingOwnership: x509, encoded: encoded)
        } catch {
            throw TLSConnectionError(.handshake, "certificate #\(index) from \(target) is unreadable: \(error)")
        }
    }
}
