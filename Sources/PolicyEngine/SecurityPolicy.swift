import OpenSSLWrapper

/// AFSecurityPolicy's pinning modes.
public enum PinningMode: String, Sendable, CaseIterable {
    case none
    case certificate
    case publicKey = "publickey"
}

/// A server-trust policy with AFSecurityPolicy's fields and defaults.
public struct SecurityPolicy: Sendable {
    public var mode: PinningMode
    /// Whole certificates: anchors in certificate mode, and their keys count as pinned keys in public-key mode.
    public var pinnedCertificates: [PinnedCertificate]
    /// SHA-256 SPKI hash pins (`sha256/…`); they serve public-key mode only.
    public var pinnedKeyHashes: [PublicKeyPin]
    /// - Warning: accepts expired, self-signed and otherwise untrusted chains, as AFNetworking does.
    public var allowInvalidCertificates: Bool
    public var validatesDomainName: Bool

    public init(
        mode: PinningMode = .none,
        pinnedCertificates: [PinnedCertificate] = [],
        pinnedKeyHashes: [PublicKeyPin] = [],
        allowInvalidCertificates: Bool = false,
        validatesDomainName: Bool = true
    ) {
        self.mode = mode
        self.pinnedCertificates = pinnedCertificates
        self.pinnedKeyHashes = pinnedKeyHashes
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
    }

    /// Every pinned public key: the SPKI of each pinned certificate, then the hash pins.
    public var pinnedPublicKeys: [PublicKeyPin] {
        pinnedCertificates.map { PublicKeyPin(sha256: $0.certificate.spkiSHA256, source: $0.source) } + pinnedKeyHashes
    }

    /// Pins of any kind, as the JSON `policy.pins` counts them.
    public var pinCount: Int { pinnedCertificates.count + pinnedKeyHashes.count }
}

/// Where a pin came from: a file and line, a file and position in a bundle, or the command line.
public struct PinSource: Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// A whole certificate pinned by byte identity.
public struct PinnedCertificate: Sendable {
    public let certificate: X509Certificate
    public let source: PinSource

    public init(certificate: X509Certificate, source: PinSource) {
        self.certificate = certificate
        self.source = source
    }
}

/// A SHA-256 hash of a DER SubjectPublicKeyInfo.
public struct PublicKeyPin: Sendable, Equatable {
    public let sha256: [UInt8]
    public let source: PinSource

    public init(sha256: [UInt8], source: PinSource) {
        self.sha256 = sha256
        self.source = source
    }

    /// The pin as written in pin files: `sha256/BASE64`.
    public var text: String { PinFormat.text(forSPKIHash: sha256) }
}
