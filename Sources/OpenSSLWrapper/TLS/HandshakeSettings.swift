internal import COpenSSL
import Transport

/// The key type of the certificate a client asks for (`--key-types`): a server holding an RSA and an ECDSA
/// certificate presents the one the client's signature algorithms allow.
public enum CertificateKeyType: String, Sendable, CaseIterable {
    case rsa, ecdsa

    /// What the client accepts, in OpenSSL's names: TLS 1.3's RSA-PSS and PKCS#1 (for 1.2) for RSA, the ECDSA
    /// curves for ECDSA. The list governs the certificate chosen, not how its chain was signed: OpenSSL's server
    /// does not hold a chain's signatures to it unless configured to be strict.
    var signatureAlgorithms: String {
        switch self {
        case .rsa:
            "rsa_pss_rsae_sha256:rsa_pss_rsae_sha384:rsa_pss_rsae_sha512:rsa_pss_pss_sha256:rsa_pss_pss_sha384:"
                + "rsa_pss_pss_sha512:rsa_pkcs1_sha256:rsa_pkcs1_sha384:rsa_pkcs1_sha512"
        case .ecdsa:
            // In TLS 1.2 the same code points stand for ECDSA with that hash, whatever the curve.
            "ecdsa_secp256r1_sha256:ecdsa_secp384r1_sha384:ecdsa_secp521r1_sha512"
        }
    }

    /// TLS 1.2 cipher suites name the server's key type too; servers that choose by cipher see only these.
    var tls12Ciphers: String {
        switch self {
        case .rsa: "aRSA"
        case .ecdsa: "aECDSA"
        }
    }

    /// "RSA", "ECDSA".
    public var displayName: String { rawValue.uppercased() }

    /// Whether a certificate's key is of this type.
    public func matches(_ certificate: X509Certificate) -> Bool {
        certificate.keyDescription.hasPrefix(self == .rsa ? "RSA " : "ECDSA ")
    }
}

/// The one TLS version a client offers (`--tls`).
public enum TLSProtocolVersion: String, Sendable, CaseIterable {
    case tls12 = "1.2"
    case tls13 = "1.3"

    var openSSLVersion: Int32 {
        switch self {
        case .tls12: TLS1_2_VERSION
        case .tls13: TLS1_3_VERSION
        }
    }

    /// "TLS 1.2".
    public var displayName: String { "TLS " + rawValue }
}

extension TLSClient {
    /// Narrows one SSL to the options' version and key type, and asks for a stapled OCSP response if wanted.
    static func apply(_ options: TLSConnectOptions, to ssl: OpaquePointer, target: TargetName)
        throws(TLSConnectionError)
    {
        if let version = options.version {
            guard COpenSSLShim_SSL_set_min_proto_version(ssl, version.openSSLVersion) == 1,
                COpenSSLShim_SSL_set_max_proto_version(ssl, version.openSSLVersion) == 1
            else { throw setupFailure("offer only \(version.displayName)") }
        }
        if let keyType = options.keyType {
            guard COpenSSLShim_SSL_set1_sigalgs_list(ssl, keyType.signatureAlgorithms) == 1,
                SSL_set_cipher_list(ssl, keyType.tls12Ciphers) == 1
            else { throw setupFailure("accept only \(keyType.displayName) certificates") }
        }
        if options.requestsOCSPStaple {
            guard COpenSSLShim_SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp) == 1 else {
                throw setupFailure("ask \(target) for a stapled OCSP response")
            }
        }
        // A validation callback is what makes OpenSSL ask for SCTs; it accepts them all, as the handshake verifies
        // nothing: the platform's rules judge them with the chain.
        if options.requestsSCTs, SSL_set_ct_validation_callback(ssl, acceptEverySCT, nil) != 1 {
            throw setupFailure("ask \(target) for its SCTs")
        }
    }

    /// The SCTs the server sent in the TLS extension or an OCSP staple (not those embedded in the leaf, which are
    /// read from it), each serialised.
    static func sentSCTs(_ ssl: OpaquePointer) -> [[UInt8]] {
        // get0: the list belongs to the SSL.
        guard let list = SSL_get0_peer_scts(ssl) else {
            OpenSSLError.clearQueue()
            return []
        }
        var scts: [[UInt8]] = []
        for index in 0..<COpenSSLShim_sk_SCT_num(list) {
            guard let sct = COpenSSLShim_sk_SCT_value(list, index),
                  SCT_get_source(sct) != SCT_SOURCE_X509V3_EXTENSION else { continue }
            var bytes: UnsafeMutablePointer<UInt8>?
            let length = i2o_SCT(sct, &bytes)
            guard length > 0, let bytes else { continue }
            scts.append(Array(UnsafeBufferPointer(start: bytes, count: Int(length))))
            COpenSSLShim_OPENSSL_free(bytes)
        }
        OpenSSLError.clearQueue()
        return scts
    }

    /// The OCSP response the server stapled, DER; nil when it sent none.
    static func stapledResponse(_ ssl: OpaquePointer) -> [UInt8]? {
        var response: UnsafePointer<UInt8>?
        // get0: the response belongs to the SSL until SSL_free; copied here.
        let length = COpenSSLShim_SSL_get_tlsext_status_ocsp_resp(ssl, &response)
        guard length > 0, let response else { return nil }
        return Array(UnsafeBufferPointer(start: response, count: length))
    }

    /// A handshake that failed while the client narrowed what it offers says so: the narrowing is the likely cause
    /// ("no shared cipher" from a server without an RSA certificate).
    static func narrowed(_ error: TLSConnectionError, _ options: TLSConnectOptions) -> TLSConnectionError {
        guard error.kind == .handshake else { return error }
        var offered: [String] = []
        if let keyType = options.keyType { offered.append("only \(keyType.displayName) certificates") }
        if let version = options.version { offered.append("only \(version.displayName)") }
        guard !offered.isEmpty else { return error }
        return TLSConnectionError(.handshake, error.message + " (pinctl asked for " + offered.joined(separator: " and ")
            + ": the server may not serve that)")
    }
}

/// OpenSSL's CT validation callback, accepting every SCT list (`SSL_set_ct_validation_callback`).
private let acceptEverySCT: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = {
    _, _, _ in 1
}
