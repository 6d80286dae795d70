internal import COpenSSL

/// Apple's TLS policy on keys and signatures: what OpenSSL's authentication level does not say, or says tersely.
///
/// The level (`VerificationSettings.authenticationLevel`) checks sizes; it takes any key type with enough security
/// bits, DSA and Ed25519 included, which Apple's trust evaluation does not. So every certificate of the built chain,
/// the anchor included, must also have an RSA or EC key.
enum KeyPolicy {
    /// OpenSSL's codes for a key or digest the authentication level refuses; the key type check uses the first two.
    static let leafKeyCode = X509_V_ERR_EE_KEY_TOO_SMALL
    static let caKeyCode = X509_V_ERR_CA_KEY_TOO_SMALL
    static let digestCode = X509_V_ERR_CA_MD_TOO_WEAK

    /// The code for an unacceptable key at `depth`.
    static func keyCode(depth: Int) -> Int32 { depth == 0 ? leafKeyCode : caKeyCode }

    /// Why the key of `x509` is not one Apple evaluates, or nil when it is RSA or EC.
    static func unacceptableKeyType(of x509: OpaquePointer) -> String? {
        // get0: the key belongs to the certificate.
        guard let key = X509_get0_pubkey(x509) else {
            OpenSSLError.clearQueue()
            return "its public key cannot be decoded; only RSA and EC keys are accepted"
        }
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA:
            // CA/Browser Forum Baseline Requirements §6.1.5: "the modulus size, in bits, is evenly divisible by 8".
            let bits = EVP_PKEY_get_bits(key)
            guard bits % 8 == 0 else {
                return "RSA key of \(bits) bits, not a whole number of bytes (CA/Browser Forum Baseline Requirements "
                    + "§6.1.5: the modulus size MUST be evenly divisible by 8)"
            }
            return nil
        case EVP_PKEY_EC: return nil
        default: return "\(keyName(key)) key; only RSA and EC keys are accepted (as in Apple's TLS policy)"
        }
    }

    /// A sentence for OpenSSL's authentication-level failures on `x509` (codes 66, 67, 68); nil for other codes.
    static func explain(code: Int32, certificate x509: OpaquePointer) -> String? {
        switch code {
        case leafKeyCode, caKeyCode:
            if let type = unacceptableKeyType(of: x509) { return type }
            // get0: the key belongs to the certificate; unacceptableKeyType has just read it.
            guard let key = X509_get0_pubkey(x509) else { return nil }
            let bits = EVP_PKEY_get_bits(key)
            if EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA {
                return "RSA key of \(bits) bits; at least 2048 are required (as in Apple's TLS policy)"
            }
            return "\(keyName(key)) key of \(bits) bits; at least 224 are required (as in Apple's TLS policy)"
        case digestCode:
            let algorithm = X509Certificate.objectName(nid: X509_get_signature_nid(x509))
            return "signed with \(algorithm), a digest too weak for TLS; SHA-1 and MD5 signatures are accepted only on "
                + "the trust anchor itself (as in Apple's TLS policy)"
        default:
            return nil
        }
    }

    /// "DSA", "Ed25519", "EC P-192", …: the algorithm as a person names it.
    private static func keyName(_ key: OpaquePointer) -> String {
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA: return "RSA"
        case EVP_PKEY_RSA_PSS: return "RSA-PSS"
        case EVP_PKEY_DSA: return "DSA"
        case EVP_PKEY_ED25519: return "Ed25519"
        case EVP_PKEY_ED448: return "Ed448"
        case EVP_PKEY_EC: return "EC " + (X509Certificate.curveName(of: key) ?? "(unnamed curve)")
        case let id: return X509Certificate.objectName(nid: id)
        }
    }
}
