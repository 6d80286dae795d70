internal import COpenSSL

/// SHA-256 and SHA-1 through OpenSSL, the one crypto engine, each algorithm fetched from its provider once.
///
/// OpenSSL 3's one-shot `SHA256()` fetches the algorithm on every call (`EVP_Q_digest` → `EVP_MD_fetch`), and so does
/// `EVP_Digest` given `EVP_sha256()`: a few µs a call, more than hashing a key takes, for every certificate read
/// (two digests), every log of Apple's CT list and every signature remembered (#33).
enum Digest {
    static func sha256(_ bytes: [UInt8]) -> [UInt8] { digest(bytes, .sha256) }

    static func sha1(_ bytes: [UInt8]) -> [UInt8] { digest(bytes, .sha1) }

    static func digest(_ bytes: [UInt8], _ algorithm: DigestAlgorithm) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: algorithm.length)
        bytes.withUnsafeBufferPointer { input in
            if let fetched = Fetched.algorithm(algorithm) {
                var length: UInt32 = 0
                _ = EVP_Digest(input.baseAddress, input.count, &digest, &length, fetched, nil)
            } else {
                // Fetching failed (a configuration without the default provider): the one-shot call fetches again.
                switch algorithm {
                case .sha256: _ = SHA256(input.baseAddress, input.count, &digest)
                case .sha1: _ = SHA1(input.baseAddress, input.count, &digest)
                }
            }
        }
        return digest
    }

    /// The algorithm as fetched once, for OpenSSL calls that take one (`X509_digest`); nil if it cannot be fetched.
    static func fetched(_ algorithm: DigestAlgorithm) -> OpaquePointer? { Fetched.algorithm(algorithm) }

    // @unchecked Sendable: a fetched EVP_MD is never changed and may be used from any thread; kept for the process.
    private final class Fetched: @unchecked Sendable {
        let sha256: OpaquePointer?
        let sha1: OpaquePointer?

        private init() {
            sha256 = EVP_MD_fetch(nil, "SHA256", nil)
            sha1 = EVP_MD_fetch(nil, "SHA1", nil)
            if sha256 == nil || sha1 == nil { OpenSSLError.clearQueue() }
        }

        static let shared = Fetched()

        static func algorithm(_ algorithm: DigestAlgorithm) -> OpaquePointer? {
            switch algorithm {
            case .sha256: shared.sha256
            case .sha1: shared.sha1
            }
        }
    }
}
