import FoundationEssentials
import OpenSSLWrapper

/// What a pin that matches no key actually is.
///
/// Pins go wrong in a few ways: the hash of the whole certificate (a fingerprint copied from a browser) instead of
/// its key; the hash of the raw key an iOS app took from `SecKeyCopyExternalRepresentation` instead of the
/// SubjectPublicKeyInfo; SHA-1 instead of SHA-256; hex or base64url instead of base64. `explain` tries each of them
/// against each certificate. It is pure and cheap (a few digests per certificate, and none for text that is no
/// hash at all), so a rejection message can afford it.
public enum PinDiagnosis {
    /// How a pin's bytes are written.
    public enum Encoding: String, Sendable, CaseIterable {
        case base64, base64url, hex
        /// `AB:CD:…`, as `openssl x509 -fingerprint` and browsers print fingerprints.
        case colonHex = "colon-hex"
    }

    /// What of a certificate the pin hashes.
    public enum Hashed: String, Sendable, CaseIterable {
        /// The DER SubjectPublicKeyInfo: what a key pin should hash.
        case spki
        /// The whole DER certificate: its fingerprint.
        case certificate
        /// The key alone, as `SecKeyCopyExternalRepresentation` gives it (`X509Certificate.rawPublicKey`).
        case rawKey = "raw-key"
    }

    /// One way the pin matches one certificate.
    public struct Explanation: Sendable, Equatable {
        public let encoding: Encoding
        /// Base64 written without its `=` padding.
        public let unpadded: Bool
        /// The prefix as written (`sha256/`, `sha1/`, `pin-sha256=`), or nil for a bare hash.
        public let prefix: String?
        public let algorithm: DigestAlgorithm
        public let hashed: Hashed
        /// The certificate's index in the chain `explain` was given.
        public let certificateIndex: Int
        /// The `sha256/` pin of that certificate's key: what to write instead.
        public let correctPin: String
        /// Whether the certificate's key is RSA, which names the raw key's form in `message`.
        let keyIsRSA: Bool

        /// Whether the pin already is the `sha256/` (or `pin-sha256=`) pin of the certificate's key.
        public var isCorrect: Bool {
            hashed == .spki && algorithm == .sha256 && encoding == .base64 && !unpadded
                && (prefix == "sha256/" || prefix == "pin-sha256=")
        }
    }

    /// Every way `pinText` matches a certificate of `chain`: empty when it matches none, or is no hash at all.
    public static func explain(_ pinText: String, in chain: [X509Certificate]) -> [Explanation] {
        let written = PinText(pinText)
        let readings = written.readings
        guard !readings.isEmpty else { return [] }
        var explanations: [Explanation] = []
        for (index, certificate) in chain.enumerated() {
            for hashed in Hashed.allCases {
                for algorithm in DigestAlgorithm.allCases {
                    let matching = readings.filter { $0.bytes.count == algorithm.length }
                    guard !matching.isEmpty, let digest = digest(algorithm, of: hashed, certificate) else { continue }
                    for reading in matching where reading.bytes == digest {
                        explanations.append(Explanation(
                            encoding: reading.encoding, unpadded: reading.unpadded, prefix: written.prefix,
                            algorithm: algorithm, hashed: hashed, certificateIndex: index,
                            certificate: certificate))
                    }
                }
            }
        }
        return explanations
    }

    /// Why `pinText` cannot be a pin of any kind (it decodes to no SHA-256 or SHA-1 in any encoding), or nil.
    public static func syntaxError(_ pinText: String) -> String? {
        let written = PinText(pinText)
        guard written.readings.isEmpty else { return nil }
        if written.body.isEmpty { return "an empty pin" }
        let lengths = Set(written.allReadings.map { "\($0.bytes.count) bytes in \($0.encoding.rawValue)" }).sorted()
        let decodes = lengths.isEmpty ? "it reads as none of them" : "it decodes to " + lengths.joined(separator: ", ")
        return "not a SHA-256 (32 bytes) or SHA-1 (20 bytes) hash in base64, base64url, hex or colon-hex: \(decodes)"
    }

    /// The digest of what `hashed` names, reusing the SHA-256 values every certificate already holds; nil for the
    /// raw key of a key that has no raw form.
    private static func digest(_ algorithm: DigestAlgorithm, of hashed: Hashed, _ certificate: X509Certificate)
        -> [UInt8]? {
        switch (algorithm, hashed) {
        case (.sha256, .spki): certificate.spkiSHA256
        case (.sha256, .certificate): certificate.sha256Fingerprint
        case (_, .spki): algorithm.digest(certificate.spkiDER)
        case (_, .certificate): algorithm.digest(certificate.derBytes)
        case (_, .rawKey): certificate.rawPublicKey.map(algorithm.digest)
        }
    }
}

extension PinDiagnosis.Explanation {
    init(
        encoding: PinDiagnosis.Encoding, unpadded: Bool, prefix: String?, algorithm: DigestAlgorithm,
        hashed: PinDiagnosis.Hashed, certificateIndex: Int, certificate: X509Certificate
    ) {
        self.encoding = encoding
        self.unpadded = unpadded
        self.prefix = prefix
        self.algorithm = algorithm
        self.hashed = hashed
        self.certificateIndex = certificateIndex
        correctPin = PinFormat.pin(of: certificate)
        keyIsRSA = certificate.keyDescription.hasPrefix("RSA")
    }

    /// One sentence: what the pin is, and what to use, e.g. "the SHA-256 of certificate 1's DER (its fingerprint),
    /// not of its SPKI, in colon-separated hex: use sha256/…".
    public var message: String {
        let name = algorithm == .sha256 ? "SHA-256" : "SHA-1"
        var text = "the \(name) of certificate \(certificateIndex)'s "
        switch hashed {
        case .spki: text += "SPKI"
        case .certificate: text += "DER (its fingerprint), not of its SPKI"
        case .rawKey:
            let form = keyIsRSA ? "PKCS#1 RSAPublicKey" : "uncompressed EC point"
            text += "raw key (the \(form) iOS's SecKeyCopyExternalRepresentation returns), not of its SPKI"
        }
        switch encoding {
        case .base64: text += unpadded ? ", in base64 without its = padding" : ""
        case .base64url: text += ", in base64url"
        case .hex: text += ", in hex"
        case .colonHex: text += ", in colon-separated hex"
        }
        if let prefix, prefix != algorithm.rawValue + "/", prefix != "pin-\(algorithm.rawValue)=" {
            text += ", written with \(prefix)"
        } else if prefix == nil, hashed == .spki, algorithm == .sha256, encoding == .base64, !unpadded {
            text += ", without the sha256/ prefix"
        }
        return text + (isCorrect ? ": already a correct pin" : ": use \(correctPin)")
    }
}
