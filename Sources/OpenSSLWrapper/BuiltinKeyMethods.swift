internal import COpenSSL

/// RSA and EC public keys of certificates decoded by OpenSSL's built-in key methods rather than its provider decoders.
///
/// OpenSSL 3.0 builds an `OSSL_DECODER_CTX` from scratch for every certificate it parses (3.0.19 has no decoder
/// cache), to decode the public key: 1.2 M instructions a certificate, a quarter of a probe's CPU in `pinctl serve`
/// (#22), most of the cost of loading a bundle of anchors (#12). The built-in methods decode the same bytes with the
/// same code: the provider's own decoder of an RSA or EC SubjectPublicKeyInfo calls `d2i_RSA_PUBKEY` or
/// `d2i_EC_PUBKEY` (providers/implementations/encode_decode/decode_der2key.c), which decode through the built-in
/// methods (`ossl_d2i_PUBKEY_legacy`), and then wraps the key for its provider. So a key reads the same either way,
/// and every signature checked with it is checked by OpenSSL's own RSA and ECDSA; only the `EVP_PKEY` differs in kind
/// (a legacy key, used through `EVP_PKEY_METHOD`s, as in OpenSSL 1.1).
///
/// Measured with scripts/openssl-handshake-loop.c against the bench's nginx (8 threads, 3 × 5 s): 0.88 ms of CPU a
/// handshake with chain verification, 0.60 ms with these methods. x509-limbo's 9,769 server cases, run through
/// `pinctl verify` with and without them, printed the same verdicts and messages.
///
/// Other key types (Ed25519, RSA-PSS, DSA, …) and OpenSSLs without the ENGINE API decode as before. Where installing
/// fails nothing changes but the speed, so it is not an error, and what the shim returns is not kept.
enum BuiltinKeyMethods {
    /// Called before pinctl or libssl parses a certificate (OpenSSL picks the method at parse time); installs once.
    static func install() { once }

    private static let once: Void = {
        _ = COpenSSLShim_use_builtin_key_methods()
        OpenSSLError.clearQueue()
    }()
}

extension X509Certificate {
    /// Whether the public key was decoded by a built-in key method (a key no provider holds); false when OpenSSL
    /// could not decode it at all. For the tests.
    package var keyIsBuiltin: Bool {
        guard let key = X509_get0_pubkey(pointer) else { return false }
        return EVP_PKEY_get0_provider(key) == nil
    }
}
