import FoundationEssentials

/// App Transport Security's identity pinning: `NSAppTransportSecurity` → `NSPinnedDomains` in an app's Info.plist
/// (iOS 14 and macOS 11 on; DESIGN §6).
///
/// As Apple's Security framework applies it (apple-oss-distributions/Security): `SecPolicyCreateSSL` for a host reads
/// the entries through `parseNSPinnedDomains` (OSX/sec/Security/SecPolicy.c) once per identity kind, pooling the
/// identities of every entry that applies — no entry wins over another — and adds them to the SSL server policy as
/// two more checks of the same evaluation (trust/trustd/SecPolicyServer.c): `SecPolicyCheckLeafSPKISHA256` compares
/// the leaf (index 0) only, `SecPolicyCheckCAspkiSHA256` every certificate of the built path from index 1, the anchor
/// included, and fails a path of one certificate. Both kinds given, both must match ("If you include both, then both
/// must produce a match", Apple's NSPinnedDomains documentation). Pinning only tightens: the chain must pass the
/// system's evaluation for the host as well ("Pinning cannot loosen the trust requirements of your app",
/// developer.apple.com/news/?id=g9ejcf8y).
public struct ATSPolicy: TrustPolicy {
    /// The entries of `NSPinnedDomains`, in the order written (Security's order is a dictionary's: it pools them).
    public let domains: [ATSPinnedDomain]
    /// Hosts the app talks to besides its pinned domains (policy files only).
    public let hosts: [String]
    /// The Info.plist the policy was read from, whole: `config export --to ats` writes it back with its other keys.
    let document: [String: PropertyListValue]?
    /// What reading the Info.plist skipped or read otherwise than it is written: a warning of the results it
    /// concerns.
    let readingNotes: [ReadingNote]

    /// A note on the Info.plist, and the `NSPinnedDomains` key it is about (nil: the whole file).
    struct ReadingNote: Sendable {
        let entry: String?
        let text: String

        /// Whether a result for `domain` should carry it: one on the whole file, or one on an entry that names the
        /// host or its parent, whether or not the entry covers subdomains (a `NSIncludesSubdomains` that is not
        /// `<true/>` is said on the names it fails to cover).
        func concerns(_ domain: String?) -> Bool {
            guard let entry, let domain else { return true }
            return ATSPinnedDomain(name: entry, includesSubdomains: true, leafIdentities: nil, caIdentities: nil,
                                   location: "").applies(to: ATSPinnedDomain.matchedHost(domain))
        }
    }

    public init(domains: [ATSPinnedDomain], hosts: [String] = []) {
        self.init(domains: domains, hosts: hosts, document: nil, readingNotes: [])
    }

    init(domains: [ATSPinnedDomain], hosts: [String], document: [String: PropertyListValue]?,
         readingNotes: [ReadingNote]) {
        self.domains = domains
        self.hosts = hosts
        self.document = document
        self.readingNotes = readingNotes
    }

    public var library: Library { .ats }

    public var pins: [Pin] {
        domains.flatMap { ($0.leafIdentities ?? []) + ($0.caIdentities ?? []) }.map(Pin.key)
    }

    public var summary: [(String, SummaryValue)] {
        let leaf = domains.reduce(0) { $0 + ($1.leafIdentities?.count ?? 0) }
        let ca = domains.reduce(0) { $0 + ($1.caIdentities?.count ?? 0) }
        return [("domains", .count(domains.count)), ("leafKeys", .count(leaf)), ("caKeys", .count(ca))]
    }

    /// What `parseNSPinnedDomains` returns for a host, per kind: nil when no entry that applies has the key.
    struct Applied {
        var entries: [ATSPinnedDomain] = []
        var leaf: [PublicKeyPin]?
        var ca: [PublicKeyPin]?

        var isPinned: Bool { leaf != nil || ca != nil }
        var names: String { entries.map(\.name).joined(separator: " and ") }
    }

    func applied(to host: String) -> Applied {
        let matched = ATSPinnedDomain.matchedHost(host)
        var applied = Applied()
        for entry in domains where entry.applies(to: matched) {
            // An entry with neither key pins nothing (NSPinnedDomains_without_spki: both results NULL).
            guard entry.leafIdentities != nil || entry.caIdentities != nil else { continue }
            applied.entries.append(entry)
            if let leaf = entry.leafIdentities { applied.leaf = (applied.leaf ?? []) + leaf }
            if let ca = entry.caIdentities { applied.ca = (applied.ca ?? []) + ca }
        }
        return applied
    }

    public func hasRule(for host: String) -> Bool { applied(to: host).isPinned }

    public var ruleHosts: [String] { domains.map { $0.includesSubdomains ? "\($0.name) and subdomains" : $0.name } }

    public func appliedPins(for host: String?) -> AppliedPins {
        guard let host else { return .none("no host: NSPinnedDomains pins by host name") }
        let applied = applied(to: host)
        guard applied.isPinned else { return .none("no NSPinnedDomains entry pins \(host)") }
        // Each kind must match on its own; every pin of the entries is one a rotation must keep in mind.
        return AppliedPins(((applied.leaf ?? []) + (applied.ca ?? [])).map { .init(.key($0), .key) })
    }

    public func evaluate(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        var outcome = judge(oracle, domain: domain)
        outcome.warnings = readingNotes.filter { $0.concerns(domain) }.map(\.text) + outcome.warnings
        return outcome
    }

    private func judge(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        let applied = domain.map(applied(to:)) ?? Applied()
        let validation = oracle.validate(against: .platform, checks: .server(host: domain))
        if let failure = validation.failure {
            return .rejected(RejectionReason.from(failure, domain: domain, anchors: validation.anchorsDescription),
                             validation, warnings: applied.isPinned ? [] : nearMisses(domain))
        }
        guard applied.isPinned else {
            return .trusted(.notPinned("no NSPinnedDomains entry pins \(domain ?? "a missing host")"), validation,
                            warnings: nearMisses(domain))
        }
        let chain = validation.chain
        var matched: PinMatch?
        if let leaf = applied.leaf {
            guard let pin = leaf.first(where: { $0.matches(chain[0]) }) else {
                return .rejected(.publicKeyNotPinned(pins: leaf, format: .compared(
                    indices: 0..<1, pinned: "NSPinnedLeafIdentities of \(applied.names)")), validation)
            }
            matched = PinMatch(source: pin.source, pin: pin.text, certificate: chain[0])
        }
        if let ca = applied.ca {
            // SecPolicyCheckCAspkiSHA256: `if (SecPVCGetCertificateCount(pvc) < 2)` fails; else any of 1..<count.
            let match = chain.indices.dropFirst().lazy.compactMap { index in
                ca.first { $0.matches(chain[index]) }.map { (index, $0) }
            }.first
            guard let (index, pin) = match else {
                return .rejected(.publicKeyNotPinned(pins: ca, format: .compared(
                    indices: 1..<max(1, chain.count), pinned: "NSPinnedCAIdentities of \(applied.names)")), validation)
            }
            matched = PinMatch(source: pin.source, pin: pin.text, certificate: chain[index])
        }
        guard let matched else { return .trusted(.validated, validation) }
        return .trusted(.pinMatched(matched), validation)
    }

    /// For a host no entry pins: the entries it just misses, which Security's matching leaves unpinned and a person
    /// may expect to apply (a key ending in a dot, a deeper subdomain of an `NSIncludesSubdomains` entry).
    private func nearMisses(_ host: String?) -> [String] {
        guard let host else { return [] }
        let matched = ATSPinnedDomain.matchedHost(host).lowercased()
        return domains.compactMap { entry in
            let name = entry.name.lowercased()
            if name.hasSuffix("."), String(name.dropLast()) == matched || (entry.includesSubdomains
                && ATSPinnedDomain.parent(of: matched).map({ String($0) == String(name.dropLast()) }) == true) {
                return "\(host) is not pinned: the NSPinnedDomains key '\(entry.name)' ends in a dot, and Security "
                    + "removes the host's trailing dot, never the key's, so it matches no host"
            }
            if entry.includesSubdomains, matched.hasSuffix("." + name),
               ATSPinnedDomain.parent(of: matched).map({ String($0) != name }) == true {
                return "\(host) is not pinned: NSIncludesSubdomains of \(entry.name) covers one label more only "
                    + "(\(entry.name)'s subdomains, not theirs)"
            }
            return nil
        }
    }
}
