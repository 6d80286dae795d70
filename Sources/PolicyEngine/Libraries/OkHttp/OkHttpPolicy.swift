import OpenSSLWrapper

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
/// strays, as OpenSSL's built chain does.
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

    public init(entries: [Entry], hosts: [String] = []) {
        var distinct: [Entry] = []
        for entry in entries
        where !distinct.contains(where: { $0.pattern == entry.pattern && $0.pin == entry.pin }) {
            distinct.append(entry)
        }
        self.entries = distinct
        self.hosts = hosts
    }

    public var library: Library { .okhttp }

    public var pins: [Pin] { entries.map { .key($0.pin) } }

    public var summary: [(String, SummaryValue)] {
        [("patterns", .count(Set(entries.map(\.pattern)).count)), ("pins", .count(entries.count))]
    }

    public func hasRule(for host: String) -> Bool { !matchingPins(for: host).isEmpty }

    /// `findMatchingPins`: the pins of every pattern matching the canonical host, pooled in order.
    public func matchingPins(for host: String) -> [PublicKeyPin] {
        guard let canonical = OkHttpPattern.canonicalHost(host) else { return [] }
        return entries.filter { $0.pattern.matches(canonicalHost: canonical) }.map(\.pin)
    }

    public func evaluate(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        var warnings = entries.compactMap { entry -> String? in
            guard entry.pin.hash.count != entry.pin.algorithm.length else { return nil }
            return "the pin \(entry.pin.text) (\(entry.pin.source)) has \(entry.pin.hash.count) bytes where "
                + "\(entry.pin.algorithm.rawValue) has \(entry.pin.algorithm.length): OkHttp accepts it, and it can never match"
        }
        // The platform's trust manager, then OkHostnameVerifier: both run before any pin is looked at.
        let validation = oracle.validate(against: .platform, checks: .server(host: domain))
        if let failure = validation.failure {
            let reason = RejectionReason.from(failure, domain: domain, anchors: validation.anchorsDescription)
            return .rejected(reason, validation, warnings: warnings)
        }
        guard let domain else {
            warnings.append("no host name was given: OkHttp matches its patterns against the URL's host, so no pin applied")
            return .trusted(.notPinned("no host name to match a pattern against"), validation, warnings: warnings)
        }
        let pins = matchingPins(for: domain)
        guard !pins.isEmpty else {
            if domain.hasSuffix("."), !matchingPins(for: String(domain.dropLast())).isEmpty {
                // okhttp#9724: a host written with its trailing dot matches no pattern, so it is not pinned.
                warnings.append("\(domain) ends with a dot: OkHttp matches no pattern against it, so its pins do not apply")
            }
            return .trusted(.notPinned("no pattern matches \(domain)"), validation, warnings: warnings)
        }
        if let match = ChainOracle.keyMatch(pins, in: validation.chain) {
            return .trusted(.pinMatched(match), validation, warnings: warnings)
        }
        let host = OkHttpPattern.canonicalHost(domain) ?? domain
        return .rejected(.publicKeyNotPinned(pins: pins, format: .okhttp(host: host)), validation, warnings: warnings)
    }
}
