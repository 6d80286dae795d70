internal import COpenSSL

/// Digests of a certificate's SubjectPublicKeyInfo beyond the SHA-256 every certificate carries.
public enum SPKIDigest {
    /// SHA-1 over the DER SubjectPublicKeyInfo: the value of an OkHttp `sha1/` pin.
    public static func sha1(of certificate: X509Certificate) -> [UInt8] {
        Digest.sha1(certificate.spkiDER)
    }
}
