import FoundationEssentials
import OpenSSLWrapper

/// Android's Network Security Configuration as an app ships it (`res/xml/network_security_config.xml`), read into
/// values: the base config, the domain configs (nested), and the debug overrides.
public struct NetworkSecurityConfig: Sendable {
    /// A source of trust anchors: `<certificates src="…" overridePins="…"/>`.
    public struct CertificatesSource: Sendable {
        public enum Kind: Sendable {
            /// `system`: the platform's store (the system store, or the CA files given in its place).
            case system
            /// `user`: the user-installed CAs of a device, which pinctl cannot see.
            case user
            /// `wfa` (newer AOSP): the Wi-Fi Alliance's roots on the device, which pinctl cannot see either.
            case wfa
            /// `@raw/NAME`: certificates bundled with the app.
            case resource(name: String, certificates: [X509Certificate])
        }

        public let kind: Kind
        public let overridePins: Bool

        public init(kind: Kind, overridePins: Bool) {
            self.kind = kind
            self.overridePins = overridePins
        }

        /// `system`, `user`, `@raw/NAME`.
        public var name: String {
            switch kind {
            case .system: "system"
            case .user: "user"
            case .wfa: "wfa"
            case .resource(let name, _): name
            }
        }
    }

    /// `<pin-set expiration="…">`: SHA-256 SPKI pins, off once the expiration day has passed.
    public struct PinSet: Sendable {
        public let pins: [PublicKeyPin]
        /// Each pin's base64 as the file wrote it (trimmed), in the order of `pins`, so an export writes back the
        /// text a reviewer can grep the app for (unpadded or non-canonical base64 stays so).
        public let texts: [String]
        /// 00:00 UTC of the `expiration` day; nil: never expires.
        public let expiration: Date?

        /// `texts` defaults to each pin's canonical padded base64.
        public init(pins: [PublicKeyPin], texts: [String]? = nil, expiration: Date?) {
            self.pins = pins
            self.texts = texts ?? pins.map { Data($0.hash).base64EncodedString() }
            self.expiration = expiration
        }
    }

    /// `<domain includeSubdomains="…">NAME</domain>`, NAME trimmed and lower-cased as XmlConfigSource does.
    public struct Domain: Sendable {
        public let name: String
        public let includeSubdomains: Bool

        public init(name: String, includeSubdomains: Bool) {
            self.name = name
            self.includeSubdomains = includeSubdomains
        }
    }

    /// A `base-config` or `domain-config`: what it sets itself; nil inherits from its parent.
    public final class Config: Sendable {
        public let domains: [Domain]
        /// nil: inherited. Present but empty (`<trust-anchors/>`): trusts nothing.
        public let trustAnchors: [CertificatesSource]?
        /// nil: inherited. Present but empty (`<pin-set/>`): no pinning, hiding the parent's pins.
        public let pinSet: PinSet?
        public let children: [Config]
        /// `cleartextTrafficPermitted="…"`; nil: inherited (at the top, false for apps targeting API 28 or later).
        public let cleartextTrafficPermitted: Bool?
        /// `hstsEnforced="…"`; nil: inherited.
        public let hstsEnforced: Bool?
        /// Where it is written, for messages: "network_security_config.xml:12".
        public let location: String
        /// Its comments and the attributes Android does not read, for an export to write back.
        public let markup: NSCMarkup

        public init(domains: [Domain], trustAnchors: [CertificatesSource]?, pinSet: PinSet?, children: [Config],
                    cleartextTrafficPermitted: Bool? = nil, hstsEnforced: Bool? = nil, location: String,
                    markup: NSCMarkup = NSCMarkup()) {
            self.markup = markup
            self.domains = domains
            self.trustAnchors = trustAnchors
            self.pinSet = pinSet
            self.children = children
            self.cleartextTrafficPermitted = cleartextTrafficPermitted
            self.hstsEnforced = hstsEnforced
            self.location = location
        }
    }

    /// `base-config`, or nil: the platform's defaults.
    public let base: Config?
    /// The top-level `domain-config`s.
    public let domainConfigs: [Config]
    /// `debug-overrides`' trust anchors; used only for a debuggable build.
    public let debugAnchors: [CertificatesSource]?
    /// The `debug-overrides` element as written, whatever the build: a release build skips it unread, so only its
    /// text can carry it into an export (from the `_debug` companion when that is where a debuggable build read it).
    public let debugOverrides: WrittenElement?
    /// The file it was read from.
    public let path: String

    /// What the reader skipped or ignored, for `--verbose`.
    public let notes: [String]
    /// The root element's comments (the document's around it too) and namespace declarations.
    public let markup: NSCMarkup
    /// What makes the config protect less than it seems to (a domain Android reads literally): given with every
    /// verdict on the app.
    public let warnings: [String]

    public init(base: Config?, domainConfigs: [Config], debugAnchors: [CertificatesSource]?,
                debugOverrides: WrittenElement? = nil, path: String, notes: [String] = [], warnings: [String] = [],
                markup: NSCMarkup = NSCMarkup()) {
        self.notes = notes
        self.markup = markup
        self.warnings = warnings
        self.base = base
        self.domainConfigs = domainConfigs
        self.debugAnchors = debugAnchors
        self.debugOverrides = debugOverrides
        self.path = path
    }
}

extension NetworkSecurityConfig {
    /// An element kept as the file wrote it: name, attributes in order, its non-blank text, and child elements.
    public struct WrittenElement: Sendable {
        public let name: String
        public let attributes: [(name: String, value: String)]
        public let text: String
        public let children: [WrittenElement]
        /// Where it is written, for messages: "network_security_config_debug.xml:12".
        public let location: String
        /// The comments before it, and those after its last child.
        public let leadingComments: [String]
        public let trailingComments: [String]

        public init(name: String, attributes: [(name: String, value: String)], text: String,
                    children: [WrittenElement], location: String, leadingComments: [String] = [],
                    trailingComments: [String] = []) {
            self.leadingComments = leadingComments
            self.trailingComments = trailingComments
            self.name = name
            self.attributes = attributes
            self.text = text
            self.children = children
            self.location = location
        }
    }
}

extension NetworkSecurityConfig {
    /// The config that applies to `host`, with the configs it inherits from (itself first, then each parent up to
    /// base-config). `ApplicationConfig.getConfigForHostname`: lower case, one trailing dot dropped; an exact domain
    /// wins (with or without includeSubdomains), else the longest includeSubdomains suffix on a label boundary, else
    /// base-config. Empty when nothing but the platform defaults applies.
    public func configChain(for host: String?) -> [Config] {
        var best: (chain: [Config], length: Int, exact: Bool)?
        if let name = host.map(Self.normalizedHost), !name.isEmpty {
            func visit(_ config: Config, parents: [Config]) {
                let chain = [config] + parents
                for domain in config.domains {
                    if domain.name == name {
                        if best?.exact != true { best = (chain, domain.name.count, true) }
                    } else if domain.includeSubdomains, name.hasSuffix("." + domain.name), best?.exact != true,
                              domain.name.count > (best?.length ?? -1) {
                        best = (chain, domain.name.count, false)
                    }
                }
                for child in config.children { visit(child, parents: chain) }
            }
            for config in domainConfigs { visit(config, parents: base.map { [$0] } ?? []) }
        }
        return best?.chain ?? (base.map { [$0] } ?? [])
    }

    /// The host as `getConfigForHostname` matches it: `hostname.toLowerCase(Locale.US)`, then "Normalize hostname by
    /// removing trailing . if present, all Domain hostnames are absolute" (one dot only).
    public static func normalizedHost(_ host: String) -> String {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// Whether a domain-config names `host` (base-config alone covers every host, so it does not count).
    public func hasDomainConfig(for host: String) -> Bool {
        let chain = configChain(for: host)
        return !chain.isEmpty && chain.first !== base
    }
}
