import FoundationEssentials
import OpenSSLWrapper

/// AFSecurityPolicy's pinning modes.
public enum PinningMode: String, Sendable, CaseIterable {
    case none
    case certificate
    case publicKey = "publickey"
}

/// AFNetworking's `AFSecurityPolicy`, with its fields and defaults.
///
/// Reproduces `-[AFSecurityPolicy evaluateServerTrust:forDomain:]` (AFNetworking/AFSecurityPolicy.m), whose branches
/// are, in order:
///
///     if (domain && self.allowInvalidCertificates && self.validatesDomainName
///         && (self.SSLPinningMode == AFSSLPinningModeNone || [self.pinnedCertificates count] == 0)) { return NO; }
///     ...
///     if (self.SSLPinningMode == AFSSLPinningModeNone) {
///         return self.allowInvalidCertificates || AFServerTrustIsValid(serverTrust);
///     } else if (!self.allowInvalidCertificates && !AFServerTrustIsValid(serverTrust)) { return NO; }
///     switch (self.SSLPinningMode) {
///         case AFSSLPinningModeCertificate: SecTrustSetAnchorCertificates(serverTrust, pinnedCertificates); ...
///         case AFSSLPinningModePublicKey: ... AFPublicKeyTrustChainForServerTrust(serverTrust) ...
public struct AFNetworkingPolicy: TrustPolicy {
    public let mode: PinningMode
    /// Whole certificates: anchors in certificate mode, and their keys count as pinned keys in public-key mode.
    public let pinnedCertificates: [PinnedCertificate]
    /// SHA-256 SPKI hash pins (`sha256/…`); they serve public-key mode only.
    public let pinnedKeyHashes: [PublicKeyPin]
    /// Hash pins given with certificate mode, where they pin nothing: kept only to warn about them.
    public let ignoredKeyHashes: [PublicKeyPin]
    /// - Warning: accepts expired, self-signed and otherwise untrusted chains, as AFNetworking does.
    public let allowInvalidCertificates: Bool
    public let validatesDomainName: Bool
    /// The hosts the policy is used for (AFNetworking's policy belongs to a session, not to hosts).
    public let hosts: [String]

    /// The policy with these settings, by flags and by policy file alike. Certificate mode drops the hash pins:
    /// AFNetworking compares the certificates of the chain with its pinned certificates (AFSecurityPolicy.m,
    /// `evaluateServerTrust:forDomain:`, case AFSSLPinningModeCertificate):
    ///
    ///     if ([self.pinnedCertificates containsObject:trustChainCertificate]) {
    ///
    /// and a hash pin is no certificate, so it can never match there; the evaluation warns that they were ignored.
    /// (Only hash pins in certificate mode is a configuration error: see `certificateModeRefusal`.)
    public init(
        mode: PinningMode = .none,
        pinnedCertificates: [PinnedCertificate] = [],
        pinnedKeyHashes: [PublicKeyPin] = [],
        allowInvalidCertificates: Bool = false,
        validatesDomainName: Bool = true,
        hosts: [String] = []
    ) {
        self.mode = mode
        self.pinnedCertificates = pinnedCertificates
        self.pinnedKeyHashes = mode == .certificate ? [] : pinnedKeyHashes
        ignoredKeyHashes = mode == .certificate ? pinnedKeyHashes : []
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.hosts = hosts
    }

    /// The hash pin that makes these pins a configuration error (DESIGN §4): certificate mode given hash pins and
    /// no certificate would pin nothing at all. Nil when the pins can serve the mode.
    public static func certificateModeRefusal(mode: PinningMode, certificates: [PinnedCertificate],
                                              keyHashes: [PublicKeyPin]) -> PublicKeyPin?
    {
        mode == .certificate && certificates.isEmpty ? keyHashes.first : nil
    }

    public var library: Library { .afnetworking }

    /// Every pinned public key: the SPKI of each pinned certificate, then the hash pins.
    public var pinnedPublicKeys: [PublicKeyPin] { pinnedCertificates.map(\.keyPin) + pinnedKeyHashes }

    /// Pins of any kind, as the JSON `policy.pins` counts them.
    public var pinCount: Int { pinnedCertificates.count + pinnedKeyHashes.count }

    public func hasRule(for host: String) -> Bool { false }

    /// None: AFNetworking's policy is set on a session, for whatever host it talks to (`hosts:` says which).
    public var ruleHosts: [String] { [] }

    public var pins: [Pin] { pinnedCertificates.map(Pin.certificate) + pinnedKeyHashes.map(Pin.key) }

    public func appliedPins(for host: String?) -> AppliedPins {
        switch mode {
        case .none: return .none("mode none pins nothing")
        case .certificate: return AppliedPins(pinnedCertificates.map { .init(.certificate($0), .certificate) })
        case .publicKey: return AppliedPins(pins.map { .init($0, .key) })
        }
    }

    public var summary: [(String, SummaryValue)] {
        [("mode", .text(mode.rawValue)), ("allowInvalidCertificates", .flag(allowInvalidCertificates)),
         ("validatesDomainName", .flag(validatesDomainName)), ("pins", .count(pinCount))]
    }

    public func evaluate(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        var outcome = verdict(oracle, domain: domain)
        outcome.warnings = warnings(oracle, domain: domain, chain: outcome.validation?.chain ?? oracle.presented)
        return outcome
    }

    /// The identity AFNetworking asks of the system: `SecPolicyCreateSSL(true, domain)` when validating the domain
    /// name, `SecPolicyCreateBasicX509()` otherwise.
    private func checks(_ domain: String?) -> IdentityChecks {
        validatesDomainName ? .server(host: domain) : .none
    }

    private func verdict(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        // Step 1: AFNetworking refuses to validate a domain for invalid certificates unless something is pinned.
        if domain != nil, allowInvalidCertificates, validatesDomainName, mode == .none || pinCount == 0 {
            return .rejected(.contradiction, nil)
        }
        let system = oracle.validate(against: .platform, checks: checks(domain))
        // Step 2.
        if mode == .none {
            if allowInvalidCertificates {
                return .trusted(.unchecked("allowInvalidCertificates with mode none accepts any certificate"), system)
            }
            return system.failure.map { .rejected(reason($0, system, domain), system) } ?? .trusted(.validated, system)
        }
        // Step 3: without allowInvalidCertificates the chain must be trusted by the system anchors first.
        if !allowInvalidCertificates, let failure = system.failure {
            return .rejected(reason(failure, system, domain), system)
        }
        return mode == .certificate
            ? certificatePinning(oracle, domain: domain, system: system)
            : publicKeyPinning(system)
    }

    /// Step 4: the pinned certificates are the only anchors; dates and (when validated) the domain still count.
    private func certificatePinning(_ oracle: ChainOracle, domain: String?, system: ChainValidation) -> PolicyOutcome {
        guard !pinnedCertificates.isEmpty else {
            return .rejected(.noPins("certificate pinning needs at least one pinned certificate"), system)
        }
        let pinned = pinnedCertificates.map(\.certificate)
        let presented = oracle.presented
        // Apple stops at the first pinned certificate; OpenSSL would try to extend a pinned leaf through the
        // intermediates above it, so only the presented certificates below the first pinned one are offered.
        let firstPinned = presented.firstIndex(where: pinned.contains) ?? presented.count
        let untrusted = firstPinned <= 1 ? [] : Array(presented[1..<firstPinned])
        // OpenSSL looks a leaf's issuer up among the anchors before it looks up the leaf itself (that is its last
        // resort), so with the leaf's issuer pinned too it would go on past a pinned leaf: a pinned leaf is the
        // only anchor. A pinned certificate above the leaf is found as an issuer, and the chain ends there.
        let anchors = AnchorSet.only(firstPinned == 0 ? [presented[0]] : pinned, named: "the pinned certificates")
        let result = oracle.validate(against: anchors, checks: checks(domain), untrusted: untrusted)
        if let failure = result.failure {
            let reason = RejectionReason.from(
                failure, domain: domain, anchors: result.anchorsDescription, leadsToNoPin: true)
            return .rejected(reason, result)
        }
        // AFNetworking walks the chain from the anchor down and accepts the first pinned certificate it meets.
        if let match = ChainOracle.certificateMatch(pinnedCertificates, in: result.chain, rootFirst: true) {
            return .trusted(.pinMatched(match), result)
        }
        return .rejected(.pinNotInChain(pins: pinnedCertificates), result)
    }

    /// Step 5: the chain built against the system anchors, valid or not, as far as it got.
    private func publicKeyPinning(_ system: ChainValidation) -> PolicyOutcome {
        let keys = pinnedPublicKeys
        guard !keys.isEmpty else {
            return .rejected(.noPins("public-key pinning needs at least one pinned key"), system)
        }
        if let match = ChainOracle.keyMatch(keys, in: system.chain) {
            return .trusted(.pinMatched(match), system)
        }
        return .rejected(.publicKeyNotPinned(pins: keys, format: .pinctl), system)
    }

    private func reason(_ failure: VerificationFailure, _ validation: ChainValidation, _ domain: String?)
        -> RejectionReason
    {
        RejectionReason.from(failure, domain: domain, anchors: validation.anchorsDescription)
    }

    /// DESIGN §2's warnings: printed beside the verdict, never changing it.
    private func warnings(_ oracle: ChainOracle, domain: String?, chain: [X509Certificate]) -> [String] {
        var warnings: [String] = []
        if allowInvalidCertificates {
            switch mode {
            case .none:
                warnings.append("allowInvalidCertificates with mode none accepts any certificate")
            case .publicKey:
                warnings.append("allowInvalidCertificates with mode publickey: domain name not verified "
                    + "(nor the chain or its dates, as in AFNetworking); only the pinned keys are checked")
            case .certificate:
                warnings.append("allowInvalidCertificates with mode certificate: the system trust gate is skipped; "
                    + "the chain must still verify up to a pinned certificate")
            }
        }
        if !ignoredKeyHashes.isEmpty {
            warnings.append("\(ignoredKeyHashes.count) hash pin(s) ignored: mode certificate compares whole "
                + "certificates")
        }
        if mode == .none, pinCount > 0 {
            warnings.append("\(pinCount) pin(s) ignored: mode none does not pin")
        }
        if validatesDomainName, domain == nil {
            warnings.append("the policy validates domain names but no domain was given: no name was checked")
        }
        if mode != .none, pinCount == 0 {
            warnings.append("mode \(mode.rawValue) with no pins rejects every chain")
        }
        if mode != .none {
            let context = oracle.context
            warnings += pinnedCertificates.compactMap {
                PolicyEvaluator.expiry(of: $0.certificate, what: "pinned certificate (\($0.source))",
                                       at: context.time, warnDays: context.warnDays)
            }
        }
        return warnings
    }
}
