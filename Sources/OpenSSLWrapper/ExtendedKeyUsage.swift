internal import COpenSSL

/// A certificate's extended key usage extension, as the purposes TLS policies ask about.
public struct ExtendedKeyUsage: Sendable, Equatable {
    /// id-kp-serverAuth is listed.
    public let serverAuth: Bool
    /// anyExtendedKeyUsage is listed.
    public let any: Bool
}

extension X509Certificate {
    /// The extended key usage extension; nil when the certificate has none.
    public var extendedKeyUsage: ExtendedKeyUsage? {
        guard X509_get_extension_flags(pointer) & UInt32(EXFLAG_XKUSAGE) != 0 else { return nil }
        let usage = X509_get_extended_key_usage(pointer)
        return ExtendedKeyUsage(serverAuth: usage & UInt32(XKU_SSL_SERVER) != 0, any: usage & UInt32(XKU_ANYEKU) != 0)
    }

    /// The size in bits of an EC key; nil for any other key.
    public var ecKeyBits: Int? {
        // get0: the key belongs to the certificate.
        guard let key = X509_get0_pubkey(pointer), EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return nil }
        return Int(EVP_PKEY_get_bits(key))
    }
}
