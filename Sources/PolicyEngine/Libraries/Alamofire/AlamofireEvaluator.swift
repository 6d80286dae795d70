import OpenSSLWrapper

/// One of Alamofire 5's `ServerTrustEvaluating` types, with its flags (Source/Features/ServerTrustEvaluation.swift).
public indirect enum AlamofireEvaluator: Sendable {
    /// `DefaultTrustEvaluator(validateHost:)`.
    case standard(validateHost: Bool)
    /// `PinnedCertificatesTrustEvaluator(certificates:acceptSelfSignedCertificates:performDefaultValidation:validateHost:)`.
    case pinnedCertificates([PinnedCertificate], acceptSelfSignedCertificates: Bool, performDefaultValidation: Bool,
                            validateHost: Bool)
    /// `PublicKeysTrustEvaluator(keys:performDefaultValidation:validateHost:)`; the keys of certificates.
    case publicKeys([PinnedCertificate], performDefaultValidation: Bool, validateHost: Bool)
    /// `DisabledTrustEvaluator`.
    case disabled
    /// `CompositeTrustEvaluator(evaluators:)`.
    case composite([AlamofireEvaluator])
    /// `RevocationTrustEvaluator(performDefaultValidation:validateHost:options:)`.
    case revocation(performDefaultValidation: Bool, validateHost: Bool, options: AlamofireRevocationOptions)

    /// "default", "pinned-certificates", …: the policy file's `kind`.
    public var kind: String {
        switch self {
        case .standard: "default"
        case .pinnedCertificates: "pinned-certificates"
        case .publicKeys: "public-keys"
        case .disabled: "disabled"
        case .composite: "composite"
        case .revocation: "revocation"
        }
    }

    /// Its settings under Alamofire's names, for the JSON `policy` object.
    public var flags: [(name: String, value: Bool)] {
        switch self {
        case .standard(let validateHost): [("validateHost", validateHost)]
        case .pinnedCertificates(_, let acceptSelfSigned, let performDefault, let validateHost):
            [("acceptSelfSignedCertificates", acceptSelfSigned), ("performDefaultValidation", performDefault),
             ("validateHost", validateHost)]
        case .publicKeys(_, let performDefault, let validateHost):
            [("performDefaultValidation", performDefault), ("validateHost", validateHost)]
        case .revocation(let performDefault, let validateHost, let options):
            [("performDefaultValidation", performDefault), ("validateHost", validateHost)]
                + AlamofireRevocationOptions.names.map { ($0, options.names.contains($0)) }
        case .disabled, .composite: []
        }
    }

    /// The certificates it pins, nested evaluators included.
    public var pinnedCertificates: [PinnedCertificate] {
        switch self {
        case .pinnedCertificates(let certificates, _, _, _), .publicKeys(let certificates, _, _): certificates
        case .composite(let evaluators): evaluators.flatMap(\.pinnedCertificates)
        case .standard, .disabled, .revocation: []
        }
    }
}

/// The state evaluators share while judging one chain: Alamofire hands every evaluator of a composite the same
/// SecTrust, so anchors one sets apply to those after it.
struct AlamofireTrust {
    let oracle: ChainOracle
    let host: String?
    /// The anchors `acceptSelfSignedCertificates` set, the only ones from then on; nil while the store is used.
    var pinnedAnchors: [X509Certificate]?
    /// The last validation run: Apple's certificate accessors return the chain its evaluation built.
    var lastValidation: ChainValidation?
    /// The pins that matched, in the order the evaluators ran: the first is what the verdict rests on.
    var matches: [PinMatch] = []
    /// Whether a validation ran and passed: a chain no evaluator validated is trusted unchecked.
    var validated = false
    var warnings: [String] = []
    /// What a revocation evaluator asked for, to be checked once the whole evaluation has passed.
    var revocation: RevocationRequest?

    /// `SecTrustEvaluateWithError` under `SecPolicyCreateSSL(true, host)`: the chain, its dates, the leaf's usage, and
    /// the name when one is given.
    mutating func validate(host: String?) -> ChainValidation {
        let validation = build(checks: .server(host: host))
        lastValidation = validation
        if validation.isValid { validated = true }
        return validation
    }

    /// The chain the certificate accessors see: the last evaluation's, or a fresh build when none ran since the
    /// anchors last changed (`SecTrustEvaluateIfNecessary`), valid or not.
    mutating func builtChain() -> ChainValidation {
        if let lastValidation { return lastValidation }
        let validation = build(checks: .none)
        lastValidation = validation
        return validation
    }

    /// One evaluation against the trust's anchors. With pinned anchors Apple's path ends at the first anchor it
    /// reaches, where OpenSSL goes on through the presented certificates above it (and checks them); a pinned leaf is
    /// found only as OpenSSL's last resort. So a path that runs past an anchor is built again, ending there.
    private func build(checks: IdentityChecks) -> ChainValidation {
        guard let pinned = pinnedAnchors else { return oracle.validate(against: .platform, checks: checks) }
        let anchors = AnchorSet.only(pinned, named: "the pinned certificates")
        let first = oracle.validate(against: anchors, checks: checks)
        guard let end = first.chain.firstIndex(where: pinned.contains), end < first.chain.count - 1 else {
            return first
        }
        return oracle.validate(against: .only([first.chain[end]], named: "the pinned certificates"), checks: checks,
                               untrusted: end <= 1 ? [] : Array(first.chain[1..<end]))
    }

    func reject(_ failure: VerificationFailure, _ validation: ChainValidation) -> Rejection {
        Rejection(RejectionReason.from(failure, domain: host, anchors: validation.anchorsDescription))
    }

    /// Runs `evaluator`; nil when it passes.
    mutating func run(_ evaluator: AlamofireEvaluator) -> Rejection? {
        switch evaluator {
        case .standard(let validateHost):
            // if validateHost { try trust.af.performValidation(forHost: host) }
            // try trust.af.performDefaultValidation(forHost: host)
            // The host check comes first and is a full evaluation: once it passes the host-less one cannot fail.
            let validation = validate(host: validateHost ? host : nil)
            return validation.failure.map { reject($0, validation) }

        case .pinnedCertificates(let certificates, let acceptSelfSigned, let performDefault, let validateHost):
            guard !certificates.isEmpty else {
                return Rejection(.noPins("No certificates were found or provided for evaluation."))
            }
            // if acceptSelfSignedCertificates { try trust.af.setAnchorCertificates(certificates) }: the pinned
            // certificates become the only anchors (SecTrustSetAnchorCertificatesOnly(true)), and the trust must be
            // evaluated again.
            if acceptSelfSigned {
                pinnedAnchors = certificates.map(\.certificate)
                lastValidation = nil
            }
            if let rejection = validateFlags(evaluator, performDefault: performDefault, validateHost: validateHost) {
                return rejection
            }
            // Set(trust.af.certificateData) against Set(certificates.af.data): any overlap passes.
            guard let match = ChainOracle.certificateMatch(certificates, in: builtChain().chain) else {
                return Rejection(.pinNotInChain(pins: certificates))
            }
            matches.append(match)
            return nil

        case .publicKeys(let certificates, let performDefault, let validateHost):
            // Bundle.af.publicKeys: keys Security cannot extract (not RSA or EC) are dropped by compactMap.
            let keys = certificates.filter { KeyKinds.isRSAOrEC($0.certificate) }.map(\.keyPin)
            guard !keys.isEmpty else {
                return Rejection(.noPins("No public keys were found or provided for evaluation."))
            }
            if let rejection = validateFlags(evaluator, performDefault: performDefault, validateHost: validateHost) {
                return rejection
            }
            let served = builtChain().chain.filter(KeyKinds.isRSAOrEC)
            guard let match = ChainOracle.keyMatch(keys, in: served) else {
                return Rejection(.publicKeyNotPinned(pins: keys, format: .pinctl))
            }
            matches.append(match)
            return nil

        case .disabled:
            warnings.append("DisabledTrustEvaluator accepts every certificate (App Transport Security, outside "
                + "Alamofire, may still refuse the connection on a device)")
            return nil

        case .revocation(let performDefault, let validateHost, let options):
            // if performDefaultValidation { try trust.af.performDefaultValidation(forHost: host) }
            // if validateHost { try trust.af.performValidation(forHost: host) }
            // try trust.af.evaluate(afterApplying: SecPolicy.af.revocation(options: options))
            // The last step replaces the trust's policies with the revocation policy alone (SecTrustSetPolicies), so
            // it evaluates the chain and its dates without TLS usage or a name, then asks about revocation.
            if let rejection = validateFlags(evaluator, performDefault: performDefault, validateHost: validateHost,
                                             warnUnchecked: false) {
                return rejection
            }
            let basic = build(checks: .none)
            if let failure = basic.failure { return reject(failure, basic) }
            validated = true
            if lastValidation == nil { lastValidation = basic }
            revocation = options.request
            return nil

        case .composite(let evaluators):
            // for evaluator in self { try evaluator.evaluate(trust, forHost: host) }: in order, the first throw wins;
            // an empty list throws nothing.
            if evaluators.isEmpty { warnings.append("an empty CompositeTrustEvaluator accepts every certificate") }
            for (index, inner) in evaluators.enumerated() {
                if let rejection = run(inner) {
                    return rejection.within("evaluator \(index + 1) of \(evaluators.count) (\(inner.kind))")
                }
            }
            return nil
        }
    }

    /// `performDefaultValidation` (no host) then `validateHost` (a full evaluation with the host): both validate the
    /// chain, so only with both off is it unchecked.
    private mutating func validateFlags(_ evaluator: AlamofireEvaluator, performDefault: Bool, validateHost: Bool,
                                        warnUnchecked: Bool = true) -> Rejection?
    {
        if performDefault {
            let validation = validate(host: nil)
            if let failure = validation.failure { return reject(failure, validation) }
        }
        if validateHost {
            let validation = validate(host: host)
            if let failure = validation.failure { return reject(failure, validation) }
        }
        if !performDefault, !validateHost, warnUnchecked {
            warnings.append("\(evaluator.kind): performDefaultValidation and validateHost are both off: the chain, its "
                + "dates and the host name are not checked, only the pins")
        }
        return nil
    }
}

/// Which keys Apple's Security framework extracts from a certificate ("only RSA and ECDSA keys are supported").
enum KeyKinds {
    static func isRSAOrEC(_ certificate: X509Certificate) -> Bool {
        certificate.keyDescription.hasPrefix("RSA ") || certificate.keyDescription.hasPrefix("ECDSA ")
    }
}

/// `RevocationTrustEvaluator.Options`, an OptionSet of Apple's revocation policy constants; `.any` by default.
public struct AlamofireRevocationOptions: Sendable, Equatable {
    /// The option names pinctl reads, as Alamofire spells them.
    public static let names = ["any", "ocsp", "crl", "preferCRL", "requirePositiveResponse", "networkAccessDisabled"]

    /// Those given, in the order of `names`; ["any"] when none is.
    public let names: [String]

    public init(_ given: [String]) {
        names = Self.names.filter(given.contains)
    }

    /// What pinctl checks for them. Apple's kSecRevocationUseAnyAvailableMethod (`.any`) prefers OCSP; `.crl` alone or
    /// `.preferCRL` makes it the CRL. `.networkAccessDisabled` consults "only locally cached replies": a client
    /// without a cache has only what the server stapled. `.requirePositiveResponse` turns every doubt (unknown, no
    /// source) into a failure, as Apple does with kSecRevocationRequirePositiveResponse.
    var request: RevocationRequest {
        let set = Set(names)
        let mode: RevocationMode
        if set.contains("networkAccessDisabled") {
            mode = .stapled
        } else if set.contains("preferCRL") || (set.contains("crl") && !set.contains("ocsp")) {
            mode = .crl
        } else {
            mode = .ocsp
        }
        return RevocationRequest(mode: mode, requiresPositiveResponse: set.contains("requirePositiveResponse"))
    }
}
