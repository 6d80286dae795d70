internal import COpenSSL

/// What RFC 5280 and the CA/Browser Forum require of an issued certificate's form, which OpenSSL 3.0 does not check
/// and strict verifiers do (x509-limbo's `rfc5280::serial` and `webpki::ee-basicconstraints-ca` cases were false
/// "trusted"): refused, since a device may refuse it too, and a gate that says "trusted" must not be wrong.
enum CertificateForm {
    /// The first certificate below the anchor of `chain` (leaf first) whose form is refused, with why. A chain of
    /// one certificate is the anchor itself, taken as given.
    static func firstViolation(in chain: [OpaquePointer]) -> ChainViolation? {
        guard chain.count > 1 else { return nil }
        for (depth, certificate) in chain.enumerated().dropLast() {
            if let problem = serialProblem(certificate) {
                return ChainViolation(certificate: certificate, depth: depth, message: problem)
            }
        }
        // A leaf that is a CA: "the cA boolean indicates whether the certified public key may be used to verify
        // certificate signatures" — a server's certificate is an end entity (CA/Browser Forum BR §7.1.2.7.8).
        // The flag, not X509_check_ca: that is false for a CA whose key usage lacks keyCertSign.
        if X509_get_extension_flags(chain[0]) & UInt32(EXFLAG_CA) != 0 {
            return ChainViolation(
                certificate: chain[0], depth: 0,
                message: "the server's certificate is a CA certificate (basicConstraints cA TRUE); a TLS server's "
                    + "certificate is an end entity (CA/Browser Forum Baseline Requirements §7.1.2.7.8)")
        }
        return nil
    }

    /// RFC 5280 §4.1.2.2: "The serial number MUST be a positive integer … Conforming CAs MUST NOT use serialNumber
    /// values longer than 20 octets."
    private static func serialProblem(_ certificate: OpaquePointer) -> String? {
        guard let serial = X509_get0_serialNumber(certificate) else { return nil }
        // get0: the integer belongs to the certificate.
        if ASN1_STRING_type(serial) == V_ASN1_NEG_INTEGER {
            return "a negative serial number (RFC 5280 §4.1.2.2: it MUST be a positive integer)"
        }
        let length = ASN1_STRING_length(serial)
        if length == 0 || (ASN1_STRING_get0_data(serial).map { bytes in
            (0..<Int(length)).allSatisfy { bytes[$0] == 0 }
        } ?? true) {
            return "a serial number of zero (RFC 5280 §4.1.2.2: it MUST be a positive integer)"
        }
        // The content octets of the DER INTEGER: a leading zero octet keeps a high first bit positive.
        let first = ASN1_STRING_get0_data(serial).map { $0[0] } ?? 0
        let octets = Int(length) + (first & 0x80 != 0 ? 1 : 0)
        if octets > 20 {
            return "a serial number of \(octets) octets (RFC 5280 §4.1.2.2: conforming CAs MUST NOT use more than 20)"
        }
        return nil
    }
}
