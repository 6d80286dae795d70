import OpenSSLWrapper

/// A new key for the next rotation, a certificate request for it, and the pin to ship before it is used: an app
/// that already carries the pin of the next key survives the move to it (DESIGN §10).
public struct BackupKey: Sendable {
    /// `--type`: what TLS servers and every pinning library take.
    public enum KeyType: String, Sendable, CaseIterable {
        case ecdsa, rsa

        /// ECDSA on P-256; RSA of 2048 bits, the size certificate authorities issue most.
        public var algorithm: PrivateKey.Algorithm { self == .ecdsa ? .ecdsaP256 : .rsa(bits: 2048) }
    }

    public let algorithm: PrivateKey.Algorithm
    /// The private key, unencrypted PKCS#8 PEM.
    public let keyPEM: [UInt8]
    /// The certificate signing request, PEM.
    public let requestPEM: [UInt8]
    /// `sha256/BASE64` of the key's SubjectPublicKeyInfo.
    public let pin: String

    /// Generates the key and signs a request for `subject` (as `SubjectText` reads it) with it.
    public static func make(_ type: KeyType, subject: String) throws(InputError) -> BackupKey {
        let attributes = try SubjectText.parse(subject)
        do {
            let key = try PrivateKey.generate(type.algorithm)
            let request = try CertificateSigningRequest.make(subject: attributes, key: key)
            let pin = PinFormat.text(forSPKIHash: DigestAlgorithm.sha256.digest(try key.subjectPublicKeyInfo()))
            return BackupKey(algorithm: type.algorithm, keyPEM: try key.pem(), requestPEM: try request.pem(), pin: pin)
        } catch {
            throw InputError("--subject \(subject): \(error.description)")
        }
    }
}

/// A subject as written on the command line: `CN=api.example.com,O=Example` (most specific first, as pinctl and
/// `openssl -nameopt RFC2253` print subjects) or `/O=Example/CN=api.example.com` (openssl's `-subj`, most general
/// first). A backslash keeps the next character as it is (`O=Example\, Inc.`).
public enum SubjectText {
    /// The attributes in ASN.1 order, the most general first.
    public static func parse(_ text: String) throws(InputError) -> [(attribute: String, value: String)] {
        let slashes = text.hasPrefix("/")
        let separator: Character = slashes ? "/" : ","
        var components: [(attribute: String, value: String?)] = [("", nil)]
        var escaped = false
        for character in slashes ? text.dropFirst() : Substring(text) {
            let last = components.count - 1
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
                continue
            } else if character == separator {
                components.append(("", nil))
                continue
            } else if character == "=", components[last].value == nil {
                components[last].value = ""
                continue
            }
            if components[last].value == nil {
                components[last].attribute.append(character)
            } else {
                components[last].value?.append(character)
            }
        }
        var attributes: [(attribute: String, value: String)] = []
        for component in components {
            let attribute = component.attribute.trimming({ $0 == " " })
            guard !attribute.isEmpty, let value = component.value?.trimming({ $0 == " " }), !value.isEmpty else {
                throw InputError("--subject \(text): expected ATTRIBUTE=VALUE pairs such as "
                    + "CN=api.example.com,O=Example or /O=Example/CN=api.example.com")
            }
            attributes.append((attribute, value))
        }
        return slashes ? attributes : attributes.reversed()
    }
}
