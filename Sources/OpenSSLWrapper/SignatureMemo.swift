internal import COpenSSL
import Synchronization

/// The certificate signatures this process has checked, so that a signature is checked once however many platform
/// versions judge the chain that carries it (#33). A chain judged on every version of every platform was verified
/// once per version class (seven for a Let's Encrypt chain): each verification checked the leaf's P-384 signature
/// again, 0.64 ms with OpenSSL 3.0's P-384 (`openssl speed ecdsap384`), most of the cost of judging on more versions.
///
/// What a signature check answers depends on nothing but the signed certificate, byte for byte, and the issuer's key
/// (`X509_verify(subject, key)`), so the memo is keyed by the SHA-256 of the subject's DER and of the issuer's whole
/// SubjectPublicKeyInfo, algorithm and parameters included: a certificate another key did not sign is checked
/// against that key, never answered from a check against the first. SHA-256, not the SHA-1 OpenSSL caches in every
/// certificate, whose collisions can be made. The oldest entry goes once `capacity` are held, so a long-running
/// `pinctl serve` keeps a bounded memory whatever its fleet serves.
package enum SignatureMemo {
    struct Key: Hashable {
        let signed: [UInt8]
        let issuerKey: [UInt8]
    }

    static let capacity = 4096
    private static let memory = Mutex(BoundedMemory<Key, Bool>(capacity: capacity))

    /// How many checks were answered from memory, for tests and notes on what it saved.
    package static var hits: Int { memory.withLock { $0.hits } }

    /// Whether `key`, the public key of `issuer`, verifies the signature of `subject` (`X509_verify`); remembered.
    /// A certificate or key that cannot be encoded is checked and not remembered.
    static func verifies(_ subject: OpaquePointer, key: OpaquePointer, issuer: OpaquePointer) -> Bool {
        guard let signed = digest(subject), let issuerKey = keyDigest(issuer) else {
            return X509_verify(subject, key) > 0
        }
        let memoKey = Key(signed: signed, issuerKey: issuerKey)
        if let known = memory.withLock({ $0.value(for: memoKey) }) { return known }
        let result = X509_verify(subject, key)
        // -1 is an error inside OpenSSL (memory, a provider), not an answer about the signature: not remembered.
        if result >= 0 { memory.withLock { $0.remember(result == 1, for: memoKey) } }
        return result == 1
    }

    private static func digest(_ certificate: OpaquePointer) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, Digest.fetched(.sha256) ?? EVP_sha256(), &digest, &length) == 1 else {
            OpenSSLError.clearQueue()
            return nil
        }
        return Array(digest.prefix(Int(length)))
    }

    private static func keyDigest(_ certificate: OpaquePointer) -> [UInt8]? {
        // get0: the SubjectPublicKeyInfo belongs to the certificate.
        guard let publicKey = X509_get_X509_PUBKEY(certificate) else { return nil }
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509_PUBKEY(publicKey, &der)
        guard length > 0, let der else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer { COpenSSLShim_OPENSSL_free(der) }
        return Digest.sha256(Array(UnsafeBufferPointer(start: der, count: Int(length))))
    }
}
