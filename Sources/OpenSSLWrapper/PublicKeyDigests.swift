internal import COpenSSL

/// Digests of a certificate's SubjectPublicKeyInfo beyond the SHA-256 every certificate carries.
public enum SPKIDigest {
    /// SHA-1 over the DER SubjectPublicKeyInfo: the value of an OkHttp `sha1/` pin.
    public static func sha1(of certificate: X509Certificate) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        certificate.spkiDER.withUnsafeBufferPointer { input in
            _ = SHA1(input.baseAddress, input.count, &digest)
        }
        return digest
    }
}
