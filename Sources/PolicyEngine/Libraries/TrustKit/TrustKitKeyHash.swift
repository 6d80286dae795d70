import OpenSSLWrapper

/// What TrustKit hashes of a certificate's key (`Pinning/TSKSPKIHashCache.m`): a header fixed for the key's type and
/// size, then `SecKeyCopyExternalRepresentation(key)`, which is PKCS#1 `RSAPublicKey` for RSA and the uncompressed
/// point `04‖X‖Y` for EC:
///
///     NSMutableData *spkiData = [NSMutableData dataWithBytes:asn1HeaderBytes length:asn1HeaderSize];
///     [spkiData appendData:publicKeyData];
///     CC_SHA256(spkiData.bytes, (unsigned int)spkiData.length, ...);
///
/// The header is the DER prefix of a SubjectPublicKeyInfo (rsaEncryption with NULL parameters, or id-ecPublicKey
/// with the curve) with the lengths of the usual key written in. So TrustKit's hash is the SHA-256 of the
/// certificate's DER SubjectPublicKeyInfo, as openssl and pinctl compute pins, exactly when that DER is the header
/// followed by the key in that form. Otherwise (an RSA exponent longer or shorter than 65537's three bytes, RSA
/// parameters other than NULL, a compressed or hybrid EC point) TrustKit hashes other bytes, and no pin of the DER
/// can match.
enum TrustKitKeyHash {
    enum Form: Equatable {
        /// TrustKit hashes the DER SubjectPublicKeyInfo: pins compare as pinctl computes them.
        case der
        /// A key type TrustKit supports, encoded otherwise: TrustKit's hash is not the DER's.
        case reencoded
        /// `isKeySupported()` is false: TrustKit cannot hash it, which blocks the connection.
        case unsupported
    }

    private struct Header {
        /// Up to and including the BIT STRING's unused-bits byte.
        let prefix: [UInt8]
        /// The whole SubjectPublicKeyInfo with the key in TrustKit's form.
        let length: Int
        /// The first byte of the key for EC: 04, an uncompressed point.
        let firstKeyByte: UInt8?
    }

    private static let rsaEncryption: [UInt8] = [0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01,
                                                 0x01, 0x05, 0x00]
    private static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]

    /// RSA 2048, 3072 (since TrustKit 3.0.5) and 4096, EC P-256 and P-384: the keys `isKeySupported()` accepts.
    private static let headers: [String: Header] = [
        "RSA 2048": Header(prefix: [0x30, 0x82, 0x01, 0x22] + rsaEncryption + [0x03, 0x82, 0x01, 0x0F, 0x00],
                           length: 294, firstKeyByte: nil),
        "RSA 3072": Header(prefix: [0x30, 0x82, 0x01, 0xA2] + rsaEncryption + [0x03, 0x82, 0x01, 0x8F, 0x00],
                           length: 422, firstKeyByte: nil),
        "RSA 4096": Header(prefix: [0x30, 0x82, 0x02, 0x22] + rsaEncryption + [0x03, 0x82, 0x02, 0x0F, 0x00],
                           length: 550, firstKeyByte: nil),
        "ECDSA P-256": Header(prefix: [0x30, 0x59, 0x30, 0x13] + ecPublicKey
                                  + [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00],
                              length: 91, firstKeyByte: 0x04),
        "ECDSA P-384": Header(prefix: [0x30, 0x76, 0x30, 0x10] + ecPublicKey
                                  + [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00],
                              length: 120, firstKeyByte: 0x04),
    ]

    static func form(of certificate: X509Certificate) -> Form {
        guard let header = headers[certificate.keyDescription] else { return .unsupported }
        let spki = certificate.spkiDER
        guard spki.count == header.length, spki.starts(with: header.prefix) else { return .reencoded }
        if let first = header.firstKeyByte, spki[header.prefix.count] != first { return .reencoded }
        return .der
    }

    /// The warning for a `.reencoded` key.
    static func reencodedWarning(_ certificate: X509Certificate) -> String {
        "\(certificate.subject) has a \(certificate.keyDescription) key that TrustKit hashes in another encoding than "
            + "its DER SubjectPublicKeyInfo (such as an RSA exponent of 3, RSA parameters other than NULL or a "
            + "compressed EC point), so no SPKI pin of it can match in TrustKit"
    }
}
