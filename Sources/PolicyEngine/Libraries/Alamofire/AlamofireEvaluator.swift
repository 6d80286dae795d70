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

    /// "default", "pinned-certificates", …: the policy file's `kind`.
    public var kind: String {
        switch self {
        case .standard: "default"
        case .pinnedCertificates: "pinned-certificates"
        case .publicKeys: "public-keys"
        case .disabled: "disabled"
        case .composite: "composite"
        }
    }

    /// The certificates it pins, nested evaluators included.
    public var pinnedCertificates: [PinnedCertificate] {
        switch self {
        case .pinnedCertificates(let certificates, _, _, _), .publicKeys(let certificates, _, _): certificates
        case .composite(let evaluators): evaluators.flatMap(\.pinnedCertificates)
        case .standard, .disabled: []
        }
    }
}

/// The state evaluators share while judging one chain: Alamofire hands every evaluator of a composite the same
/// SecTrust, so anchors one sets apply to those after it.
struct AlamofireTrust {
    let oracle: ChainOracle
    let host: String?
    var anchors: AnchorSet = .platform
    /// The last validation run: Apple's certificate accessors return the chain its evaluation built.
    var lastValidation: ChainValidation?
    var warnings: [String] = []

    /// `SecTrustEvaluateWithError` under `SecPolicyCreateSSL(true, host)`: the chain, its dates, the leaf's usage, and
    /// the name when one is given.
    mutating func validate(host: String?) -> ChainValidation {
        let validation = oracle.validate(against: anchors, checks: .server(host: host))
        lastValidation = validation
        return validation
    }

    /// The chain the certificate accessors see: the last evaluation's, or a fresh build when none ran (both flags
    /// off), valid or not.
    mutating func builtChain() -> ChainValidation {
        if let lastValidation { return lastValidation }
        let validation = oracle.validate(against: anchors, checks: .none)
        lastValidation = validation
        return validation
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
            let validation = validate(host: validateHost ? host : nil)
            return validation.failure.map { reject($0, validation) }

        case .pinnedCertificates(let certificates, let acceptSelfSigned, let performDefault, let validateHost):
            guard !certificates.isEmpty else {
                return Rejection(.noPins("No certificates were found or provided for evaluation."))
            }
            // if acceptSelfSignedCertificates { try trust.af.setAnchorCertificates(certificates) }: the pinned
            // certificates become the only anchors (SecTrustSetAnchorCertificatesOnly(true)).
            if acceptSelfSigned {
                anchors = .only(certificates.map(\.certificate), named: "the pinned certificates")
                lastValidation = nil
            }
            if let rejection = validateFlags(performDefault: performDefault, validateHost: validateHost) {
                return rejection
            }
            let chain = builtChain()
            if ChainOracle.certificateMatch(certificates, in: chain.chain) != nil { return nil }
            return Rejection(.pinNotInChain(pins: certificates))

        case .publicKeys(let certificates, let performDefault, let validateHost):
            // Bundle.af.publicKeys: keys Security cannot extract (not RSA or EC) are dropped by compactMap.
            let keys = certificates.filter { KeyKinds.isRSAOrEC($0.certificate) }.map(\.keyPin)
            guard !keys.isEmpty else {
                return Rejection(.noPins("No public keys were found or provided for evaluation."))
            }
            if let rejection = validateFlags(performDefault: performDefault, validateHost: validateHost) {
                return rejection
            }
            let chain = builtChain()
            let served = chain.chain.filter(KeyKinds.isRSAOrEC)
            if ChainOracle.keyMatch(keys, in: served) != nil { return nil }
            return Rejection(.publicKeyNotPinned(pins: keys, format: .pinctl))

        case .disabled:
            warnings.append("DisabledTrustEvaluator accepts every certificate (App Transport Security, outside "
                + "Alamofire, may still refuse the connection on a device)")
            return nil

        case .composite(let evaluators):
            // for evaluator in self { try evaluator.evaluate(trust, forHost: host) }: in order, the first throw wins.
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
    private mutating func validateFlags(performDefault: Bool, validateHost: Bool) -> Rejection? {
        if performDefault {
            let validation = validate(host: nil)
            if let failure = validation.failure { return reject(failure, validation) }
        }
        if validateHost {
            let validation = validate(host: host)
            if let failure = validation.failure { return reject(failure, validation) }
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
