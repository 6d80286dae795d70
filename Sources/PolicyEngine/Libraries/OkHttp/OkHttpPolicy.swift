
/// OkHttp's `CertificatePinner` (OkHttp 4.3 and later), after the platform's own checks.
///
/// `ConnectPlan.connectTls` runs the handshake (the platform's trust manager), then the hostname verifier, then
/// `certificatePinner.check(address.url.host) { cleaned chain }`; `check` pools the pins of every matching pattern:
///
///     val pins = findMatchingPins(hostname)
///     if (pins.isEmpty()) return
///     val peerCertificates = cleanedPeerCertificatesFn()
///     for (peerCertificate in peerCertificates) { ... if (pin.hash == sha256) return // Success!
///
/// The cleaned chain is the chain built to a trusted anchor: it holds a store root the server did not send and drops
/// strays, as OpenSSL's built chain does. (On the JVM, `BasicCertificateChainCleaner` also refuses a cleaned chain of
/// more than 10 certificates and climbs past a trusted anchor that is not self-signed; Android's cleaner returns the
/// platform's verified chain. pinctl follows the built chain.)
public struct OkHttpPolicy: TrustPolicy {
    /// One `add(pattern, pin)`, in the order the app's builder made them.
    public struct Entry: Sendable {
        public let pattern: OkHttpPattern
        public let pin: PublicKeyPin

        public init(pattern: OkHttpPattern, pin: PublicKeyPin) {
            self.pattern = pattern
            self.pin = pin
        }
    }

    /// Distinct (pattern, pin) pairs in insertion order, as `Builder.build()`'s `pins.toSet()` keeps them.
    public let entries: [Entry]
    /// Hosts the app talks to besides those its patterns name (policy files only).
    public let hosts: [String]
    /// What reading the app's build left unjudged (pin strings no `add` call uses), said with every result.
    let readingWarnings: [String]

    public init(entries: [Entry], hosts: [String] = []) {
        self.init(entries: entries, hosts: hosts, readingWarnings: [])
    }

    init(entries: [Entry], hosts: [String], readingWarnings: [String]) {
        // A set of what was seen, not a search of what was kept: a generated file may add 100k pins.
        struct Seen: Hashable {
            let pattern: OkHttpPattern
            let pin: PublicKeyPin
        }
        var seen: Set<Seen> = []
        self.entries = entries.filter { seen.insert(Seen(pattern: $0.pattern, pin: $0.pin)).inserted }
        self.hosts = hosts
        self.readingWarnings = readingWarnings
    }

    public var library: Library { .okhttp }

    public var pins: [Pin] { entries.map { .key($0.pin) } }

    public var summary: [(String, SummaryValue)] {
        [("patterns", .count(Set(entries.map(\.pattern)).count)), ("pins", .count(entries.count))]
    }

    public func appliedPins(for host: String?) -> AppliedPins {
        guard let host else { return .none("no host name to match a pattern against") }
        return AppliedPins(matchingPins(for: host).map { .init(.key($0), .key) },
                           notPinnedBecause: "no pattern matches \(host)")
    }

    public func hasRule(for host: String) -> Bool { !matchingPins(for: host).isEmpty }

    public var ruleHosts: [String] {
        var seen: Set<String> = []
        return entries.map(\.pattern.canonical).filter { seen.insert($0).inserted }
    }

    /// `findMatchingPins`: the pins of every pattern matching the host (canonicalised as `HttpUrl` does), pooled in
    /// insertion order; a pin under two matching patterns appears twice, as in OkHttp's failure message.
    public func matchingPins(for host: String) -> [PublicKeyPin] {
        guard let canonical = OkHttpPattern.canonicalHost(host) else { return [] }
        return entries.filter { $0.pattern.matches(canonicalHost: canonical) }.map(\.pin)
    }

    public func evaluate(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        var warnings = readingWarnings + entries.compactMap { entry -> String? in
            guard entry.pin.hash.count != entry.pin.algorithm.length else { return nil }
            return "the pin \(entry.pin.text) (\(entry.pin.source)) has \(entry.pin.hash.count) bytes where "
                + "\(entry.pin.algorithm.rawValue) has \(entry.pin.algorithm.length): OkHttp accepts it, and it can "
                + "never match"
        }
        // ConnectPlan.connectTls: the handshake (the platform's trust manager), then
        // `address.hostnameVerifier.verify(address.url.host, sslSocketSession)`, and only then
        // `certificatePinner.check`: an untrusted chain or a wrong host fails whatever the pins say.
        let validation = oracle.validate(against: .platform, checks: .server(host: domain.map(Self.nameToVerify)))
        if let failure = validation.failure {
            let reason = RejectionReason.from(failure, domain: domain, anchors: validation.anchorsDescription)
            return .rejected(reason, validation, warnings: warnings)
        }
        guard let domain else {
            warnings.append("no host name was given: OkHttp matches its patterns against the URL's host, so no pin "
                + "applied")
            return .trusted(.notPinned("no host name to match a pattern against"), validation, warnings: warnings)
        }
        guard let host = OkHttpPattern.canonicalHost(domain) else {
            let why = OkHttpPattern.hostError(domain) ?? "it has no canonical form"
            warnings.append("host \(domain): \(why); no pattern can match it")
            return .trusted(.notPinned("no pattern can match \(domain)"), validation, warnings: warnings)
        }
        let pins = matchingPins(for: host)
        guard !pins.isEmpty else {
            if host.hasSuffix("."), !matchingPins(for: String(host.dropLast())).isEmpty {
                // `findMatchingPins` compares the host as written: `example.com.` matches neither `example.com` nor
                // `**.example.com`, while OkHostnameVerifier accepts the name (okhttp#9724, open at 5.4.0).
                warnings.append("host \(host) ends with a dot: OkHttp applies no pins to it (okhttp#9724), though "
                    + "\(host.dropLast()) is pinned")
            }
            return .trusted(.notPinned("no pattern matches \(host)"), validation, warnings: warnings)
        }
        // `check` returns on the first certificate of the cleaned chain whose SPKI SHA-256 or SHA-1 equals a pin.
        if let match = ChainOracle.keyMatch(pins, in: validation.chain) {
            return .trusted(.pinMatched(match), validation, warnings: warnings)
        }
        return .rejected(.publicKeyNotPinned(pins: pins, format: .okhttp(host: host)), validation, warnings: warnings)
    }

    /// The name OpenSSL checks the leaf against. OkHostnameVerifier makes both the host and the certificate's names
    /// absolute (`a.com` and `a.com.` are one name) where X509_check_host refuses a trailing dot: one is dropped.
    ///
    /// Other differences from OkHostnameVerifier, left as OpenSSL has them (rare): a `*.com` SAN matches `a.com` for
    /// OkHttp, not for OpenSSL (two labels after the star); an IPv4-mapped IPv6 SAN equals the IPv4 host for OkHttp.
    static func nameToVerify(_ domain: String) -> String {
        domain.hasSuffix(".") && !domain.hasSuffix("..") ? String(domain.dropLast()) : domain
    }
}
