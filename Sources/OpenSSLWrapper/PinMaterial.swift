internal import COpenSSL

/// The digests a pin may have been written with.
public enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable {
    case sha256, sha1

    /// Bytes of a digest of this kind.
    public var length: Int { self == .sha256 ? Int(SHA256_DIGEST_LENGTH) : Int(SHA_DIGEST_LENGTH) }

    /// The digest of `bytes`, through OpenSSL.
    public func digest(_ bytes: [UInt8]) -> [UInt8] { Digest.digest(bytes, self) }
}

extension X509Certificate {
    /// The public key as iOS's `SecKeyCopyExternalRepresentation` returns it, which is what an app that hashes "the
    /// key" hashes: PKCS#1 `RSAPublicKey` for RSA, the uncompressed point `04‖X‖Y` for EC (whatever form the
    /// certificate carries it in). Nil for other key types, which have no such form, or a key OpenSSL cannot encode.
    public var rawPublicKey: [UInt8]? {
        // get0: the EVP_PKEY belongs to the certificate.
        guard let key = X509_get0_pubkey(pointer) else {
            OpenSSLError.clearQueue()
            return nil
        }
        let encoded: [UInt8]?
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA: encoded = Self.pkcs1(key)
        case EVP_PKEY_EC: encoded = Self.uncompressedPoint(key)
        default: encoded = nil
        }
        if encoded == nil { OpenSSLError.clearQueue() }
        return encoded
    }

    /// `RSAPublicKey` (modulus and exponent), as `i2d_PublicKey` encodes an RSA key.
    private static func pkcs1(_ key: OpaquePointer) -> [UInt8]? {
        let length = i2d_PublicKey(key, nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_PublicKey(key, &cursor)
        }
        return written == length ? bytes : nil
    }

    /// The EC point in uncompressed form. OpenSSL 3's EC key manager always encodes the "encoded public key"
    /// uncompressed (as TLS needs it), whatever form the certificate carries; `i2d_PublicKey` would keep that form.
    private static func uncompressedPoint(_ key: OpaquePointer) -> [UInt8]? {
        var encoded: UnsafeMutablePointer<UInt8>?
        let length = EVP_PKEY_get1_encoded_public_key(key, &encoded)
        // get1: the buffer is ours to free.
        guard length > 0, let encoded else { return nil }
        defer { COpenSSLShim_OPENSSL_free(encoded) }
        return Array(UnsafeBufferPointer(start: encoded, count: length))
    }
}
