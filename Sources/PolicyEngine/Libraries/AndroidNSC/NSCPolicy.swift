import FoundationEssentials

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

    public func appliedPins(for host: String?) -> AppliedPins {
        let chain = config.configChain(for: host)
        guard let pinSet = chain.lazy.compactMap(\.pinSet).first, !pinSet.pins.isEmpty else {
            return .none("no pin-set applies to \(host ?? "this connection")")
        }
        return AppliedPins(pinSet.pins.map { .init(.key($0), .key) }, expiration: pinSet.expiration)
    }

    public func hasRule(for host: String) -> Bool { config.hasDomainConfig(for: host) }

    /// Every `<domain>` of every `domain-config`, nested ones too.
    public var ruleHosts: [String] {
        func names(_ config: NetworkSecurityConfig.Config) -> [String] {
            config.domains.map { $0.includeSubdomains ? "\($0.name) and subdomains" : $0.name }
                + config.children.flatMap(names)
        }
        return config.domainConfigs.flatMap(names)
    }

    /// The platform's default anchors when no config sets any: the system store, never overriding pins. User CAs,
    /// which Android adds for apps targeting API 23 or lower, are in the platform's anchors for such an app
    /// (`EvaluationContext.forApp(targetSdk:)`).
    static let platformDefault = [NetworkSecurityConfig.CertificatesSource(kind: .system, overridePins: false)]

    public func evaluate(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        // The config is chosen for the normalized host (configChain normalizes it, once), and the name is checked
        // on it too: the HTTP stacks' hostname verifiers (OkHttp's, which HttpsURLConnection uses too) compare
        // absolute names, so "api.example.com." is valid wherever "api.example.com" is.
        let chain = config.configChain(for: domain)
        let host = domain.map(NetworkSecurityConfig.normalizedHost)
        var warnings = config.warnings
        if domain == nil, !config.domainConfigs.isEmpty {
            warnings.append("no host name was given: base-config applies (Android refuses a host-less check when "
                + "domain-configs exist)")
        }
        // getEffectiveCertificatesEntryRefs: the nearest config that sets <trust-anchors> (even empty) gives the
        // whole list; debug-overrides' anchors are added to every such list (addDebugAnchorsIfNeeded).
        var sources = chain.lazy.compactMap(\.trustAnchors).first ?? Self.platformDefault
        if debuggable, let debug = config.debugAnchors { sources += debug }
        // With a platform, the roots given beside its store are its user's (DESIGN §12); without one, or for Wi-Fi
        // CAs, there is nothing that stands for them.
        let userRoots = oracle.context.platformRules?.userRoots != nil
        for unseen in ["user", "wfa"] where sources.contains(where: { $0.name == unseen })
            && (unseen == "wfa" || !userRoots) {
            warnings.append("\(unseen) CAs (<certificates src=\"\(unseen)\"/>) are on the device only: none is trusted "
                + "here" + (unseen == "user" ? " (with --platform, --ca-file gives them)" : ""))
        }
        let anchors = AnchorSet(sources.compactMap { source -> AnchorSet.Source? in
            switch source.kind {
            case .system: .platform
            case .user: userRoots ? .userAdded : nil
            case .wfa: nil
            case .resource(let name, let certificates): AnchorSet.Source(kind: .certificates(certificates), name: name)
            }
        })
        // Conscrypt's PKIX validation never checks a trust anchor's dates: an expired root still anchors on Android.
        // (Its key-size floor is lower than DESIGN's auth level 2: RSA 1024 and EC 160 bits pass on Android.)
        let validation = oracle.validate(against: anchors, checks: .server(host: host), checksAnchorValidity: false)
        if let failure = validation.failure {
            let reason = RejectionReason.from(failure, domain: domain, anchors: anchorsDescription(sources))
            return .rejected(reason, validation, warnings: warnings)
        }
        // checkPins: `if (pinSet.pins.isEmpty() || System.currentTimeMillis() > pinSet.expirationTime
        //     || !isPinningEnforced(chain)) return;`
        guard let pinned = chain.first(where: { $0.pinSet != nil }), let pinSet = pinned.pinSet else {
            return .trusted(.notPinned("no pin-set applies to \(host ?? "this connection")"), validation,
                            warnings: warnings)
        }
        guard !pinSet.pins.isEmpty else {
            return .trusted(.notPinned("the pin-set that applies to \(host ?? "this connection") (the domain-config at "
                + "\(pinned.location)) is empty: no pinning"), validation, warnings: warnings)
        }
        if let expiration = pinSet.expiration {
            warnings += Self.timeZoneWarning(expiration: expiration, at: oracle.context.time)
            if oracle.context.time > expiration {
                let why = "the pin-set expired on \(Timestamp.day(expiration)) (read as 00:00 UTC): fail-open"
                return .trusted(.failedOpen(why), validation, warnings: warnings + [why])
            }
        }
        // isPinningEnforced: the anchor ending the chain is looked up among the config's sources, those that
        // override pins first ("If we see the same certificate in two TrustAnchors, one with overridesPins and one
        // without, the one with overridesPins wins").
        if let anchor = validation.anchor, let index = validation.anchorSources.first(where: { index in
            index < anchors.sources.count && overrides(anchors.sources[index], in: sources)
        }) {
            let source = anchors.sources[index]
            let name = source.kind == .platform ? "system" : source.kind == .userAdded ? "user" : source.name
            let why = "the chain's anchor \(anchor.subject) comes from \(name), which has overridePins=\"true\": pins "
                + "are bypassed"
            return .trusted(.failedOpen(why), validation, warnings: warnings + [why])
        }
        if let match = ChainOracle.keyMatch(pinSet.pins, in: validation.chain, rootFirst: true) {
            return .trusted(.pinMatched(match), validation, warnings: warnings)
        }
        return .rejected(.publicKeyNotPinned(pins: pinSet.pins, format: .pinctl), validation, warnings: warnings)
    }

    /// Android reads the expiration at the device's midnight, which is 00:00 UTC shifted by the device's offset
    /// (UTC-12:00 to UTC+14:00): from 14 hours before to 12 hours after the instant pinctl uses. Inside that window
    /// the verdict depends on where the phone is.
    static func timeZoneWarning(expiration: Date, at time: Date) -> [String] {
        let earliest = expiration.addingTimeInterval(-14 * 3600)
        let latest = expiration.addingTimeInterval(12 * 3600)
        guard time > earliest, time <= latest else { return [] }
        return ["the pin-set expires when \(Timestamp.day(expiration)) begins in the device's time zone, between "
            + "\(Timestamp.iso8601(earliest)) and \(Timestamp.iso8601(latest)); pinctl reads 00:00 UTC, so a phone "
            + "elsewhere may decide otherwise"]
    }

    /// Whether the anchor-set source came from a `<certificates>` entry with overridePins.
    private func overrides(_ source: AnchorSet.Source, in sources: [NetworkSecurityConfig.CertificatesSource]) -> Bool {
        sources.contains { candidate in
            guard candidate.overridePins else { return false }
            switch (candidate.kind, source.kind) {
            case (.system, .platform), (.user, .userAdded): return true
            case (.resource(let name, _), .certificates): return name == source.name
            default: return false
            }
        }
    }

    private func anchorsDescription(_ sources: [NetworkSecurityConfig.CertificatesSource]) -> String {
        sources.isEmpty ? "no trust anchors (an empty <trust-anchors>)" : sources.map(\.name).joined(separator: ", ")
    }
}
