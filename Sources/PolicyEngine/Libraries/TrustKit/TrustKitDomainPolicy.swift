import FoundationEssentials
import PublicSuffix

/// One entry of TrustKit's `TSKPinnedDomains`, its keys without the `kTSK` prefix.
public struct TrustKitDomainPolicy: Sendable {
    /// `TSKPublicKeyHashes`: SHA-256 SPKI hashes.
    public var publicKeyHashes: [PublicKeyPin]
    public var includeSubdomains: Bool
    /// `kSKExcludeSubdomainFromParentPolicy` (sic): this exact host is not pinned.
    public var excludeSubdomainFromParentPolicy: Bool
    /// False: a pin mismatch is reported, not blocked.
    public var enforcePinning: Bool
    /// `TSKExpirationDate`, 00:00 UTC of that day (TrustKit parses it in UTC since 1.6.0).
    public var expirationDate: Date?
    /// Other keys the entry holds (an exclusion entry must have none): their names, for messages.
    public var otherKeys: [String]
    /// Where the entry is written, for messages.
    public var location: String

    public init(
        publicKeyHashes: [PublicKeyPin] = [], includeSubdomains: Bool = false,
        excludeSubdomainFromParentPolicy: Bool = false, enforcePinning: Bool = true, expirationDate: Date? = nil,
        otherKeys: [String] = [], location: String = ""
    ) {
        self.publicKeyHashes = publicKeyHashes
        self.includeSubdomains = includeSubdomains
        self.excludeSubdomainFromParentPolicy = excludeSubdomainFromParentPolicy
        self.enforcePinning = enforcePinning
        self.expirationDate = expirationDate
        self.otherKeys = otherKeys
        self.location = location
    }

    /// Distinct pins by value: TrustKit counts an NSSet of the decoded hashes.
    public var distinctPinCount: Int { Set(publicKeyHashes).count }

    /// Every key the entry holds besides the exclusion: those written (`otherKeys`) and those its values imply, so a
    /// policy built in code is judged as one read from a file.
    var keysBesidesExclusion: [String] {
        var keys = otherKeys
        func add(_ key: String, if present: Bool) {
            if present, !keys.contains(key) { keys.append(key) }
        }
        add("publicKeyHashes", if: !publicKeyHashes.isEmpty)
        add("includeSubdomains", if: includeSubdomains)
        add("enforcePinning", if: !enforcePinning)
        add("expirationDate", if: expirationDate != nil)
        return keys
    }
}

/// Why TrustKit would refuse a configuration at launch (`[NSException raise:@"TrustKit configuration invalid" …]`
/// in parse_configuration.m): the app crashes, so pinctl refuses it too.
public struct TrustKitConfigurationError: Error, Sendable {
    /// The domain at fault, or nil for the whole configuration.
    public let domain: String?
    /// The key of the domain's entry at fault (`publicKeyHashes`, `includeSubdomains`…), or nil for the entry.
    public let key: String?
    public let message: String

    public init(domain: String?, key: String? = nil, message: String) {
        self.domain = domain
        self.key = key
        self.message = message
    }
}

extension TrustKitPolicy {
    /// Every refusal of parse_configuration.m, in its order (domains are visited in the order written; TrustKit visits
    /// them in NSDictionary order, so which of two faults it reports first is unspecified).
    static func check(_ domains: [(name: String, policy: TrustKitDomainPolicy)]) throws(TrustKitConfigurationError) {
        // if (pinnedDomains == nil || [pinnedDomains count] < 1) → "no pinned domains"
        guard !domains.isEmpty else {
            throw TrustKitConfigurationError(domain: nil, message: "no pinned domains: TrustKit refuses a "
                + "configuration without TSKPinnedDomains")
        }
        let suffixes = try PublicSuffixList.shared.mapError { error in
            TrustKitConfigurationError(domain: nil, message: "TrustKit's rules on domains need the Public Suffix List, "
                + "which cannot be read: \(error)")
        }.get()
        var seen: Set<String> = []
        for (name, policy) in domains {
            func refuse(_ message: String, key: String? = nil) -> TrustKitConfigurationError {
                TrustKitConfigurationError(domain: name, key: key, message: message)
            }
            guard seen.insert(name).inserted else { throw refuse("\(name) is configured twice") }
            // if (GetRegistryLength([domainName UTF8String]) == 0) → "TrustKit was initialized with an invalid domain"
            guard suffixes.registry(of: name) != nil, name.allSatisfy(\.isASCII) else {
                throw refuse("\(name) has no known public suffix (TrustKit refuses IP addresses, local names such as "
                    + "localhost or .internal, and names not in their xn-- form)")
            }
            if policy.excludeSubdomainFromParentPolicy {
                // if ([[domainPinningPolicy allKeys] count] > 1) → refused: an exclusion holds nothing else.
                let others = policy.keysBesidesExclusion
                guard others.isEmpty else {
                    throw refuse("an excludeSubdomainFromParentPolicy entry may hold no other key, but \(name) also "
                        + "has \(others.joined(separator: ", "))", key: "excludeSubdomainFromParentPolicy")
                }
                continue
            }
            // if (includeSubdomains && GetRegistryLength(d) == [d length]) → "pinning all subdomains of a TLD"
            if policy.includeSubdomains, suffixes.isPublicSuffix(name) {
                throw refuse("includeSubdomains on \(name), a public suffix: TrustKit refuses to pin every domain "
                    + "under it", key: "includeSubdomains")
            }
            // NSData *pinnedKeyHash = [[NSData alloc] initWithBase64EncodedString:...];
            // if ([pinnedKeyHash length] != CC_SHA256_DIGEST_LENGTH) → "Invalid pin ... not a valid SHA256 hash"
            if let bad = policy.publicKeyHashes.first(where: { $0.algorithm != .sha256 || $0.hash.count != 32 }) {
                throw refuse("\(bad.text) (\(bad.source)) is not the base64 of a 32-byte SHA-256 hash, as TrustKit "
                    + "requires of every TSKPublicKeyHashes entry", key: "publicKeyHashes")
            }
            // requiredNumberOfPins = enforce ? 2 : 1; if ([serverSslPinsSet count] < requiredNumberOfPins) → refused
            let required = policy.enforcePinning ? 2 : 1
            guard policy.distinctPinCount >= required else {
                let why = policy.enforcePinning ? " when pinning is enforced (a backup pin)" : ""
                throw refuse("\(name) has \(policy.distinctPinCount) distinct pin(s); TrustKit requires at least "
                    + "\(required)\(why)", key: "publicKeyHashes")
            }
        }
        // Each exclusion needs an includeSubdomains parent, looked up for the name with an "a" in front so that the
        // exclusion's own key cannot answer: getPinningConfigurationKeyForDomain([@"a" stringByAppendingString:
        // domainName], ...) == nil → "no parent domain". (An exact key "a" + name satisfies it too, as in TrustKit.)
        for (name, policy) in domains where policy.excludeSubdomainFromParentPolicy {
            guard lookup(host: "a" + name, in: domains) != nil else {
                throw TrustKitConfigurationError(domain: name, key: "excludeSubdomainFromParentPolicy",
                    message: "\(name) is excluded from a parent policy, but no domain with includeSubdomains covers it")
            }
        }
    }

    /// `getPinningConfigurationKeyForDomain` (configuration_utils.m): the key equal to the host (case-sensitive), else
    /// the most specific `includeSubdomains` parent with the same registry suffix.
    static func lookup(host: String, in domains: [(name: String, policy: TrustKitDomainPolicy)])
        -> (name: String, policy: TrustKitDomainPolicy)?
    {
        // if (domainPinningPolicies[hostname] == nil): an NSDictionary lookup, exact and case-sensitive.
        if let exact = domains.first(where: { $0.name == host }) { return exact }
        // GetRegistryLength is 0 for a name with a byte that is not ASCII (IsStringASCII): never a subdomain.
        // check(), which every policy passed, has refused to go on without the list.
        guard case .success(let suffixes) = PublicSuffixList.shared,
              host.allSatisfy(\.isASCII), let hostRegistry = suffixes.registry(of: host) else { return nil }
        var best: (name: String, policy: TrustKitDomainPolicy)?
        for entry in domains where entry.policy.includeSubdomains {
            // isSubdomain(): the same registry, and the host ends with "." + the domain; the longest domain wins
            // (currentMatch > bestMatch, since 1.6.2).
            guard host.count > entry.name.count, host.hasSuffix("." + entry.name),
                  suffixes.registry(of: entry.name) == hostRegistry else { continue }
            if let current = best, current.name.count >= entry.name.count { continue }
            best = entry
        }
        return best
    }
}
