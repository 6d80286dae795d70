import FoundationEssentials

/// A pinning policy in terms every library's format shares: host rules, each with its pins and how they apply.
///
/// `config export` goes through it: a library's policy becomes portable rules, and the rules become another
/// library's native file. What a format cannot say is listed, never silently dropped.
public struct PortablePolicy: Sendable {
    /// Which hosts a rule covers.
    public enum Scope: String, Sendable, Hashable {
        /// The domain itself.
        case exact
        /// Exactly one label more (OkHttp's `*.`).
        case oneLabel
        /// The domain and every name below it (OkHttp's `**.`, TrustKit's and Android's includeSubdomains).
        case withSubdomains
    }

    public struct Rule: Sendable {
        public var domain: String
        public var scope: Scope
        /// SPKI hash pins.
        public var keyPins: [PublicKeyPin]
        /// Certificates whose keys are pinned (AFNetworking's public-key mode, Alamofire's public-keys evaluator).
        public var keyCertificates: [PinnedCertificate]
        /// Whole certificates (AFNetworking's certificate mode, Alamofire's pinned certificates).
        public var certificates: [PinnedCertificate]
        /// Pins off from 00:00 UTC of this day.
        public var expiration: Date?
        /// False: a mismatch is reported, not blocked (TrustKit's enforcePinning).
        public var enforced: Bool
        /// The host is explicitly not pinned (TrustKit's exclusion, Android's empty pin-set).
        public var excluded: Bool

        public init(domain: String, scope: Scope, keyPins: [PublicKeyPin] = [], keyCertificates: [PinnedCertificate] = [],
                    certificates: [PinnedCertificate] = [], expiration: Date? = nil, enforced: Bool = true,
                    excluded: Bool = false) {
            self.domain = domain
            self.scope = scope
            self.keyPins = keyPins
            self.keyCertificates = keyCertificates
            self.certificates = certificates
            self.expiration = expiration
            self.enforced = enforced
            self.excluded = excluded
        }

        /// Every pin as a key pin: a certificate stands for its key.
        public var allKeyPins: [PublicKeyPin] {
            var pins = keyPins
            for certificate in keyCertificates + certificates where !pins.contains(certificate.keyPin) {
                pins.append(certificate.keyPin)
            }
            return pins
        }
    }

    public var rules: [Rule]
    /// Hosts the app talks to besides those its rules name.
    public var hosts: [String]

    public init(rules: [Rule], hosts: [String] = []) {
        self.rules = rules
        self.hosts = hosts
    }
}

/// What a target format cannot express; an export refuses unless the user accepts the losses (`--lossy`), and then
/// the file says what was dropped.
public struct ExportLosses: Sendable {
    public private(set) var items: [String] = []

    public init() {}

    public mutating func add(_ item: String) {
        if !items.contains(item) { items.append(item) }
    }

    public var isEmpty: Bool { items.isEmpty }
}

/// Why a policy cannot be exported at all.
public struct ExportError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// A library's policy seen in portable terms; conformers are the libraries whose policies can be exported.
public protocol PortableConvertible {
    /// The rules, and what the policy holds that portable rules cannot (anchors, evaluator flags, …).
    func portable(losses: inout ExportLosses) throws(ExportError) -> PortablePolicy
}
