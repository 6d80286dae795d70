import FoundationEssentials

/// TrustKit's `TSKPinningValidator` (iOS, TrustKit 1.7 to 3.0).
///
/// `-[TSKPinningValidator evaluateTrust:forHostname:]`, in order: look the domain up; an expired entry is not pinned
/// (`[expirationDate compare:[NSDate date]] == NSOrderedAscending`, strictly after); an exclusion is not pinned;
/// otherwise `verifyPublicKeyPin`: the system's evaluation with `SecPolicyCreateSSL(YES, hostname)` must pass, then
/// the evaluated chain is hashed from the root down, and a key it cannot hash blocks. Not pinned means
/// `NSURLSessionAuthChallengePerformDefaultHandling`: the system's own evaluation with the host. With
/// `TSKEnforcePinning` NO only `TSKTrustEvaluationFailedNoMatchingPin` is allowed; every other failure blocks.
public struct TrustKitPolicy: TrustPolicy {
    /// `TSKPinnedDomains`, in the order written.
    public let domains: [(name: String, policy: TrustKitDomainPolicy)]
    /// Hosts the app talks to besides its pinned domains (policy files only).
    public let hosts: [String]

    /// Checks the configuration as TrustKit does at launch.
    public init(domains: [(name: String, policy: TrustKitDomainPolicy)], hosts: [String] = [])
        throws(TrustKitConfigurationError)
    {
        try Self.check(domains)
        self.domains = domains
        self.hosts = hosts
    }

    private init(unchecked domains: [(name: String, policy: TrustKitDomainPolicy)], hosts: [String]) {
        self.domains = domains
        self.hosts = hosts
    }

    /// An empty `TSKConfiguration`: TrustKit never parses it (`if (self && [trustKitConfig count] > 0)`) and stays
    /// inert, so no host is pinned and each gets the system's own evaluation.
    public static func inert(hosts: [String] = []) -> TrustKitPolicy { TrustKitPolicy(unchecked: [], hosts: hosts) }

    public var library: Library { .trustkit }

    public var pins: [Pin] { domains.flatMap { $0.policy.publicKeyHashes.map(Pin.key) } }

    public var summary: [(String, SummaryValue)] {
        let pinCount = domains.reduce(0) { $0 + $1.policy.publicKeyHashes.count }
        return [("domains", .count(domains.count)), ("pins", .count(pinCount))]
    }

    public func appliedPins(for host: String?) -> AppliedPins {
        guard let host, let entry = Self.lookup(host: host, in: domains) else {
            return .none("no pinned domain covers \(host ?? "a missing host")")
        }
        guard !entry.policy.excludeSubdomainFromParentPolicy else {
            return .none("\(host) is excluded from its parent's policy")
        }
        return AppliedPins(entry.policy.publicKeyHashes.map { .init(.key($0), .key) },
                           expiration: entry.policy.expirationDate, reportOnly: !entry.policy.enforcePinning)
    }

    public func hasRule(for host: String) -> Bool { pinnedDomain(for: host) != nil }

    public var ruleHosts: [String] {
        domains.map { $0.policy.includeSubdomains ? "\($0.name) and subdomains" : $0.name }
    }

    /// The `TSKPinnedDomains` key whose entry applies to `host` (an exclusion or an expired entry included), or nil.
    public func pinnedDomain(for host: String) -> String? { Self.lookup(host: host, in: domains)?.name }

    public func evaluate(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        let entry = domain.flatMap { Self.lookup(host: $0, in: domains) }
        guard let entry, let host = domain else {
            let why = "no pinned domain covers \(domain ?? "a missing host")"
            let nearMisses = domain.flatMap(nearMiss).map { [$0] } ?? []
            return defaultHandling(oracle, domain: domain, because: why, warnings: nearMisses)
        }
        // [expirationDate compare:[NSDate date]] == NSOrderedAscending: expired strictly after 00:00 UTC of the day.
        if let expiration = entry.policy.expirationDate, oracle.context.time > expiration {
            let day = Timestamp.day(expiration)
            return defaultHandling(oracle, domain: host, failOpen: true,
                                   because: "the pins of \(entry.name) expired on \(day): fail-open")
        }
        if entry.policy.excludeSubdomainFromParentPolicy {
            return defaultHandling(oracle, domain: host, because: "\(host) is excluded from its parent's policy")
        }
        // ssl_pin_verifier.m: a failed evaluation blocks whatever the pins say, enforced or not.
        let validation = oracle.validate(against: .platform, checks: .server(host: host))
        if let failure = validation.failure {
            return .rejected(RejectionReason.from(failure, domain: host, anchors: validation.anchorsDescription),
                             validation)
        }
        // for (int i = certificateChainLen - 1; i >= 0; i--): root first; a key it cannot hash blocks at once
        // (return TSKTrustEvaluationErrorCouldNotGenerateSpkiHash), before any pin nearer the leaf is looked at.
        var warnings: [String] = []
        for certificate in validation.chain.reversed() {
            switch TrustKitKeyHash.form(of: certificate) {
            case .unsupported:
                return .rejected(.unsupportedKey(certificate, key: certificate.keyDescription), validation,
                                 warnings: warnings)
            case .reencoded:
                warnings.append(TrustKitKeyHash.reencodedWarning(certificate))
            case .der:
                if let pin = entry.policy.publicKeyHashes.first(where: { $0.matches(certificate) }) {
                    let match = PinMatch(source: pin.source, pin: pin.text, certificate: certificate)
                    return .trusted(.pinMatched(match), validation, warnings: warnings)
                }
            }
        }
        let reason = RejectionReason.publicKeyNotPinned(pins: entry.policy.publicKeyHashes, format: .pinctl)
        guard entry.policy.enforcePinning else {
            let why = "enforcePinning is off for \(entry.name): no pin matched, and TrustKit only reports it"
            return .trusted(.failedOpen(why), validation, warnings: warnings + [why])
        }
        return .rejected(reason, validation, warnings: warnings)
    }

    /// `NSURLSessionAuthChallengePerformDefaultHandling`: the system's evaluation with the host, nothing pinned.
    private func defaultHandling(
        _ oracle: ChainOracle, domain: String?, failOpen: Bool = false, because why: String, warnings: [String] = []
    ) -> PolicyOutcome {
        let validation = oracle.validate(against: .platform, checks: .server(host: domain))
        if let failure = validation.failure {
            return .rejected(RejectionReason.from(failure, domain: domain, anchors: validation.anchorsDescription),
                             validation, warnings: warnings)
        }
        return .trusted(failOpen ? .failedOpen(why) : .notPinned(why), validation,
                        warnings: warnings + (failOpen ? [why] : []))
    }

    /// For a host no policy covers: the warning when it is unpinned only because of case or a trailing dot. TrustKit
    /// compares names exactly (an NSDictionary key, then `isSubdomain`'s suffix test), so `API.example.com` and
    /// `api.example.com.` miss the policy of `api.example.com`, and a key `API.example.com` matches no lowercase host.
    private func nearMiss(_ host: String) -> String? {
        var normalized = host.lowercased()
        if normalized.hasSuffix(".") { normalized.removeLast() }
        let lowered = domains.map { (name: $0.name.lowercased(), policy: $0.policy) }
        guard let near = Self.lookup(host: normalized, in: lowered) else { return nil }
        let written = domains.first { $0.name.lowercased() == near.name }?.name ?? near.name
        return "\(host) is not pinned: TrustKit matches host names exactly (case and a trailing dot count), so the "
            + "policy of \(written) does not apply to it"
    }
}
