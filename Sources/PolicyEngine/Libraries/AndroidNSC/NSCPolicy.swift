import Foundation
import OpenSSLWrapper

/// Android's Network Security Configuration, as `NetworkSecurityTrustManager` applies it.
///
///     List<X509Certificate> trustedChain = mDelegate.checkServerTrusted(certs, authType, host);
///     checkPins(trustedChain);
///     ...
///     if (pinSet.pins.isEmpty() || System.currentTimeMillis() > pinSet.expirationTime
///             || !isPinningEnforced(chain)) { return; }
///     for (int i = chain.size() - 1; i >= 0 ; i--) { ... if (pinSet.pins.contains(...)) return; }
///     throw new CertificateException("Pin verification failed");
///
/// The trusted chain is built against the config's own anchors only; `isPinningEnforced` looks the chain's last
/// certificate up among those anchors and returns `!chainAnchor.overridesPins`.
public struct NSCPolicy: TrustPolicy {
    public let config: NetworkSecurityConfig
    /// A debuggable build: `debug-overrides` apply.
    public let debuggable: Bool
    /// Hosts the app talks to besides those its domain-configs name (policy files only).
    public let hosts: [String]

    public init(config: NetworkSecurityConfig, debuggable: Bool = false, hosts: [String] = []) {
        self.config = config
        self.debuggable = debuggable
        self.hosts = hosts
    }

    public var library: Library { .nsc }

    public var pins: [Pin] {
        var all: [Pin] = []
        func visit(_ config: NetworkSecurityConfig.Config) {
            all += (config.pinSet?.pins ?? []).map(Pin.key)
            config.children.forEach(visit)
        }
        config.domainConfigs.forEach(visit)
        return all
    }

    public var summary: [(String, SummaryValue)] {
        [("domainConfigs", .count(config.domainConfigs.count)), ("pins", .count(pins.count)),
         ("debuggable", .flag(debuggable))]
    }

    public func hasRule(for host: String) -> Bool { config.hasDomainConfig(for: host) }

    /// The platform's default anchors when no config sets any: the system store (user CAs only for apps targeting
    /// API 23 or lower, which pinctl does not model), never overriding pins.
    static let platformDefault = [NetworkSecurityConfig.CertificatesSource(kind: .system, overridePins: false)]

    public func evaluate(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        let chain = config.configChain(for: domain)
        var warnings: [String] = []
        if domain == nil, !config.domainConfigs.isEmpty {
            warnings.append("no host name was given: base-config applies (Android refuses a host-less check when "
                + "domain-configs exist)")
        }
        var sources = chain.lazy.compactMap(\.trustAnchors).first ?? Self.platformDefault
        if debuggable, let debug = config.debugAnchors { sources += debug }
        if sources.contains(where: { if case .user = $0.kind { return true } else { return false } }) {
            warnings.append("user-installed CAs (<certificates src=\"user\"/>) are not modelled: none is trusted here")
        }
        let anchors = AnchorSet(sources.compactMap { source -> AnchorSet.Source? in
            switch source.kind {
            case .system: .platform
            case .user: nil
            case .resource(let name, let certificates): AnchorSet.Source(kind: .certificates(certificates), name: name)
            }
        })
        // Conscrypt's PKIX validation never checks a trust anchor's dates: an expired root still anchors on Android.
        let validation = oracle.validate(against: anchors, checks: .server(host: domain), checksAnchorValidity: false)
        if let failure = validation.failure {
            let reason = RejectionReason.from(failure, domain: domain, anchors: anchorsDescription(sources))
            return .rejected(reason, validation, warnings: warnings)
        }
        guard let pinSet = chain.lazy.compactMap(\.pinSet).first, !pinSet.pins.isEmpty else {
            return .trusted(.notPinned("no pin-set applies to \(domain ?? "this connection")"), validation,
                            warnings: warnings)
        }
        if let expiration = pinSet.expiration, oracle.context.time > expiration {
            let why = "the pin-set expired on \(Timestamp.day(expiration)): fail-open"
            return .trusted(.failedOpen(why), validation, warnings: warnings + [why])
        }
        // The anchor is looked up among the config's sources (overriding ones first, so a certificate in both an
        // overriding and a plain source overrides).
        let anchorSources = validation.anchorSources
        let overriding = anchorSources.filter { index in
            index < anchors.sources.count && overrides(anchors.sources[index], in: sources)
        }
        if let index = overriding.first, let anchor = validation.anchor {
            let why = "the chain's anchor \(anchor.subject) comes from \(anchors.sources[index].name == AnchorSet.Source.platform.name ? "system" : anchors.sources[index].name), "
                + "which has overridePins=\"true\": pins are bypassed"
            return .trusted(.failedOpen(why), validation, warnings: warnings + [why])
        }
        if let match = ChainOracle.keyMatch(pinSet.pins, in: validation.chain, rootFirst: true) {
            return .trusted(.pinMatched(match), validation, warnings: warnings)
        }
        return .rejected(.publicKeyNotPinned(pins: pinSet.pins, format: .pinctl), validation, warnings: warnings)
    }

    /// Whether the anchor-set source came from a `<certificates>` entry with overridePins.
    private func overrides(_ source: AnchorSet.Source, in sources: [NetworkSecurityConfig.CertificatesSource]) -> Bool {
        sources.contains { candidate in
            guard candidate.overridePins else { return false }
            switch (candidate.kind, source.kind) {
            case (.system, .platform): return true
            case (.resource(let name, _), .certificates): return name == source.name
            default: return false
            }
        }
    }

    private func anchorsDescription(_ sources: [NetworkSecurityConfig.CertificatesSource]) -> String {
        sources.isEmpty ? "no trust anchors (an empty <trust-anchors>)" : sources.map(\.name).joined(separator: ", ")
    }
}
