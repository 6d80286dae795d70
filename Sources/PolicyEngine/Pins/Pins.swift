import FoundationEssentials
import OpenSSLWrapper

/// The hash of a DER SubjectPublicKeyInfo a key pin holds: SHA-256 (every library) or SHA-1 (OkHttp's `sha1/`).
public enum SPKIHashAlgorithm: String, Sendable, Hashable, CaseIterable {
    case sha256, sha1

    /// Bytes of a digest of this kind.
    public var length: Int { self == .sha256 ? 32 : 20 }
}

/// A public key pinned by the hash of its SubjectPublicKeyInfo.
///
/// Two pins are equal when they pin the same key the same way; where they are written (`source`) does not count, so
/// a set of pins holds each key once, as TrustKit's NSSet and OkHttp's `toSet()` do.
public struct PublicKeyPin: Sendable, Hashable {
    public let algorithm: SPKIHashAlgorithm
    public let hash: [UInt8]
    public let source: PinSource
    /// The pin as the app's file wrote it, where that differs from the canonical form (okio reads unpadded and
    /// URL-safe base64): an export to the same library writes it back so, and a reviewer can grep the app for it
    /// (#19). Not part of the pin's identity.
    public let written: WrittenText?

    /// A pin's text as one library's file wrote it: OkHttp's `sha256/…`, TrustKit's bare base64.
    public struct WrittenText: Sendable {
        public let library: Library
        public let text: String

        public init(library: Library, text: String) {
            self.library = library
            self.text = text
        }
    }

    public init(algorithm: SPKIHashAlgorithm = .sha256, hash: [UInt8], source: PinSource, written: WrittenText? = nil) {
        self.algorithm = algorithm
        self.hash = hash
        self.source = source
        self.written = written
    }

    /// The text `library`'s file wrote for this pin, if it wrote it otherwise than the canonical form.
    public func writtenText(in library: Library) -> String? {
        written.flatMap { $0.library == library ? $0.text : nil }
    }

    /// The pin of a certificate's key.
    public init(of certificate: X509Certificate, source: PinSource) {
        self.init(algorithm: .sha256, hash: certificate.spkiSHA256, source: source)
    }

    /// `sha256/BASE64` or `sha1/BASE64`, standard padded base64.
    public var text: String { algorithm.rawValue + "/" + Data(hash).base64EncodedString() }

    /// Whether `certificate`'s key is the pinned one.
    public func matches(_ certificate: X509Certificate) -> Bool {
        switch algorithm {
        case .sha256: certificate.spkiSHA256 == hash
        case .sha1: SPKIDigest.sha1(of: certificate) == hash
        }
    }

    public static func == (lhs: PublicKeyPin, rhs: PublicKeyPin) -> Bool {
        lhs.algorithm == rhs.algorithm && lhs.hash == rhs.hash
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(algorithm)
        hasher.combine(hash)
    }
}

/// A whole certificate pinned by byte identity (and, where a library pins keys, by its key).
public struct PinnedCertificate: Sendable {
    public let certificate: X509Certificate
    public let source: PinSource

    public init(certificate: X509Certificate, source: PinSource) {
        self.certificate = certificate
        self.source = source
    }

    /// The pin of this certificate's key, written where the certificate is.
    public var keyPin: PublicKeyPin { PublicKeyPin(of: certificate, source: source) }
}

/// Which pin matched, and the certificate it matched.
public struct PinMatch: Sendable {
    public let source: PinSource
    /// The pin as text (`sha256/…`), or the certificate's subject for a certificate pin.
    public let pin: String
    public let certificate: X509Certificate

    public init(source: PinSource, pin: String, certificate: X509Certificate) {
        self.source = source
        self.pin = pin
        self.certificate = certificate
    }
}

/// One pin of a policy, of either kind, as lint and messages list them.
public enum Pin: Sendable {
    case certificate(PinnedCertificate)
    case key(PublicKeyPin)

    public var source: PinSource {
        switch self {
        case .certificate(let pinned): pinned.source
        case .key(let pin): pin.source
        }
    }

    /// `sha256/… CN=…` for a certificate (its key's pin and its subject), the pin's text for a key.
    public var description: String {
        switch self {
        case .certificate(let pinned): "\(PinFormat.pin(of: pinned.certificate)) \(pinned.certificate.subject)"
        case .key(let pin): pin.text
        }
    }
}
