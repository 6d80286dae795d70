internal import COpenSSL

/// A key pair pinctl generates, owning its `EVP_PKEY*`.
// @unchecked Sendable: the key is never changed after generation, and OpenSSL 3 keys may be read from any thread.
public final class PrivateKey: @unchecked Sendable {
    /// The algorithms `backup-key` offers: what TLS servers and every pinning library take.
    public enum Algorithm: Sendable, Equatable, CustomStringConvertible {
        case ecdsaP256
        case rsa(bits: Int)

        public var description: String {
            switch self {
            case .ecdsaP256: "ECDSA P-256"
            case .rsa(let bits): "RSA \(bits)"
            }
        }
    }

    let pointer: OpaquePointer

    /// Wraps an `EVP_PKEY*` whose reference the caller hands over.
    init(takingOwnership pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// A new key pair from OpenSSL's random generator.
    public static func generate(_ algorithm: Algorithm) throws(OpenSSLError) -> PrivateKey {
        // A new key (+1), owned by the PrivateKey from here on.
        let generated: OpaquePointer? = switch algorithm {
        case .ecdsaP256: COpenSSLShim_EVP_EC_gen("P-256")
        case .rsa(let bits): bits > 0 ? COpenSSLShim_EVP_RSA_gen(UInt32(bits)) : nil
        }
        guard let generated else { throw OpenSSLError.drain("generate an \(algorithm) key") }
        return PrivateKey(takingOwnership: generated)
    }

    /// The private key as unencrypted PKCS#8 PEM (`BEGIN PRIVATE KEY`). The BIO it passes through is OpenSSL's
    /// secure memory, cleared when freed.
    public func pem() throws(OpenSSLError) -> [UInt8] {
        try MemoryBIO.contents("write the private key as PEM", secure: true) { bio in
            PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil)
        }
    }

    /// The DER SubjectPublicKeyInfo of the public half: what a `sha256/` pin hashes.
    public func subjectPublicKeyInfo() throws(OpenSSLError) -> [UInt8] {
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else { throw OpenSSLError.drain("encode the public key") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_PUBKEY(pointer, &cursor)
        }
        guard written == length else { throw OpenSSLError.drain("encode the public key") }
        return bytes
    }

    /// Calls `body` with the borrowed `EVP_PKEY*`; the pointer must not escape.
    func withUnsafeKeyPointer<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        try withExtendedLifetime(self) { try body(pointer) }
    }
}

/// What one PEM writer puts into a fresh memory BIO.
enum MemoryBIO {
    static func contents(
        _ operation: String, secure: Bool = false, _ write: (OpaquePointer) -> Int32
    ) throws(OpenSSLError) -> [UInt8] {
        guard let bio = BIO_new(secure ? BIO_s_secmem() : BIO_s_mem()) else { throw OpenSSLError.drain(operation) }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw OpenSSLError.drain(operation) }
        var data: UnsafeMutablePointer<CChar>?
        let length = COpenSSLShim_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else { throw OpenSSLError.drain(operation) }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }
}
