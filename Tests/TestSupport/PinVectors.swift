import Foundation

/// Pins written every wrong way people write them, made by the openssl CLI and coreutils alone: the expected values
/// for `pinctl diagnose` and `PinDiagnosis`.
public enum PinVector {
    /// What of a certificate is hashed.
    public enum Hashed: String, CaseIterable, Sendable {
        case spki, certificate
        /// PKCS#1 RSAPublicKey for RSA, the uncompressed EC point for EC.
        case rawKey = "raw-key"
    }

    public enum Digest: String, CaseIterable, Sendable {
        case sha256, sha1
    }

    public enum Encoding: String, CaseIterable, Sendable {
        case base64, base64url, hex
        case colonHex = "colon-hex"
    }

    /// The shell command printing the bytes hashed, for the certificate in `file`.
    public static func material(_ hashed: Hashed, of file: String) -> String {
        let publicKey = "openssl x509 -in '\(file)' -noout -pubkey"
        switch hashed {
        case .spki:
            return "\(publicKey) | openssl pkey -pubin -outform der"
        case .certificate:
            return "openssl x509 -in '\(file)' -outform der"
        case .rawKey:
            // The last 65 bytes of an uncompressed P-256 SubjectPublicKeyInfo are its point 04‖X‖Y.
            return "if openssl x509 -in '\(file)' -noout -text | grep -q rsaEncryption; "
                + "then \(publicKey) | openssl rsa -pubin -RSAPublicKey_out -outform der; "
                + "else \(publicKey) | openssl ec -pubin -conv_form uncompressed -outform der | tail -c 65; fi"
        }
    }

    /// The pin text: `digest` of `hashed` of the certificate in `file` (relative to `directory`), in `encoding`,
    /// after `prefix`.
    public static func make(
        _ hashed: Hashed, _ digest: Digest, _ encoding: Encoding, of file: String, prefix: String = "",
        in directory: String = Certs.directory
    ) throws -> String {
        let hash: String
        switch encoding {
        case .base64: hash = "openssl dgst -\(digest.rawValue) -binary | base64 -w0"
        case .base64url: hash = "openssl dgst -\(digest.rawValue) -binary | basenc --base64url -w0"
        case .hex: hash = "openssl dgst -\(digest.rawValue) -binary | xxd -p -c 256"
        // openssl prints "SHA2-256(stdin)= ab:cd:…".
        case .colonHex: hash = "openssl dgst -\(digest.rawValue) -c | sed 's/^.*= //'"
        }
        return prefix + (try ShellPipeline.output("\(material(hashed, of: file)) | \(hash)", in: directory))
    }

    /// How a pin written in `encoding` reads: base64url text with neither '-' nor '_' is plain base64.
    public static func reading(_ pin: String, writtenIn encoding: Encoding) -> String {
        guard encoding == .base64url, !pin.contains("-"), !pin.contains("_") else { return encoding.rawValue }
        return Encoding.base64.rawValue
    }
}
