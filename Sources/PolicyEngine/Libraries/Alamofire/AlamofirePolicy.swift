import OpenSSLWrapper

/// Alamofire 5's `ServerTrustManager`: one evaluator per host, looked up exactly.
///
///     guard let evaluator = evaluators[host] else {
///         if allHostsMustBeEvaluated { throw AFError.serverTrustEvaluationFailed(reason: .noRequiredEvaluator(host: host)) }
///         return nil
///     }
///
/// A nil evaluator makes `SessionDelegate` answer `.performDefaultHandling`: URLSession's own evaluation, with the
/// host.
public struct AlamofirePolicy: TrustPolicy {
    public let allHostsMustBeEvaluated: Bool
    /// Host → evaluator, in the order written; the key is compared exactly (a Swift dictionary subscript).
    public let evaluators: [(host: String, evaluator: AlamofireEvaluator)]
    /// Hosts the app talks to besides those with an evaluator (policy files only).
    public let hosts: [String]
    /// On the command line: one evaluator for whatever host is checked.
    public let evaluatorForEveryHost: AlamofireEvaluator?

    public init(allHostsMustBeEvaluated: Bool = true, evaluators: [(host: String, evaluator: AlamofireEvaluator)],
                hosts: [String] = []) {
        self.allHostsMustBeEvaluated = allHostsMustBeEvaluated
        self.evaluators = evaluators
        self.hosts = hosts
        evaluatorForEveryHost = nil
    }

    /// A single evaluator applied to the host checked, as `--library alamofire --evaluator …` gives it.
    public init(evaluator: AlamofireEvaluator) {
        allHostsMustBeEvaluated = true
        evaluators = []
        hosts = []
        evaluatorForEveryHost = evaluator
    }

    public var library: Library { .alamofire }

    public var pins: [Pin] {
        (evaluators.map(\.evaluator) + (evaluatorForEveryHost.map { [$0] } ?? []))
            .flatMap(\.pinnedCertificates).map(Pin.certificate)
    }

    public var summary: [(String, SummaryValue)] {
        if let evaluator = evaluatorForEveryHost {
            return [("evaluator", .text(evaluator.kind)), ("pins", .count(pins.count))]
        }
        return [("allHostsMustBeEvaluated", .flag(allHostsMustBeEvaluated)), ("evaluators", .count(evaluators.count)),
                ("pins", .count(pins.count))]
    }

    public func hasRule(for host: String) -> Bool { evaluators.contains { $0.host == host } }

    public func evaluate(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        var warnings: [String] = []
        let evaluator: AlamofireEvaluator
        if let single = evaluatorForEveryHost {
            evaluator = single
        } else if let host = domain, let found = evaluators.first(where: { $0.host == host }) {
            evaluator = found.evaluator
        } else if allHostsMustBeEvaluated {
            return .rejected(.noEvaluator(host: domain ?? "(none)"), nil, warnings: caseWarning(domain))
        } else {
            // .performDefaultHandling: URLSession validates against the system with the host.
            let validation = oracle.validate(against: .platform, checks: .server(host: domain))
            if let failure = validation.failure {
                let reason = RejectionReason.from(failure, domain: domain, anchors: validation.anchorsDescription)
                return .rejected(reason, validation)
            }
            return .trusted(.notPinned("no evaluator for \(domain ?? "this host"): URLSession's default handling"),
                            validation, warnings: caseWarning(domain))
        }
        if domain == nil { warnings.append("no host name was given: validateHost checks no name") }
        var trust = AlamofireTrust(oracle: oracle, host: domain)
        let rejection = trust.run(evaluator)
        warnings += trust.warnings
        let validation = trust.lastValidation
        if let rejection { return PolicyOutcome(.rejected(rejection), validation: validation, warnings: warnings) }
        let basis: TrustBasis
        switch evaluator {
        case .disabled: basis = .unchecked("DisabledTrustEvaluator")
        case .standard: basis = .validated
        default: basis = matchedPin(evaluator, trust).map(TrustBasis.pinMatched) ?? .validated
        }
        return .trusted(basis, validation ?? trust.lastValidation, warnings: warnings)
    }

    /// The pin that let the chain through, for the report: the first pinned certificate (or key) in the chain.
    private func matchedPin(_ evaluator: AlamofireEvaluator, _ trust: AlamofireTrust) -> PinMatch? {
        guard let chain = trust.lastValidation?.chain else { return nil }
        switch evaluator {
        case .pinnedCertificates(let certificates, _, _, _):
            return ChainOracle.certificateMatch(certificates, in: chain)
        case .publicKeys(let certificates, _, _):
            return ChainOracle.keyMatch(certificates.map(\.keyPin), in: chain.filter(KeyKinds.isRSAOrEC))
        case .composite(let inner):
            return inner.lazy.compactMap { matchedPin($0, trust) }.first
        default:
            return nil
        }
    }

    /// The lookup is case-sensitive: a key that differs only in case never matches.
    private func caseWarning(_ domain: String?) -> [String] {
        guard let domain, let near = evaluators.first(where: { $0.host.lowercased() == domain.lowercased() }) else {
            return []
        }
        return ["the evaluator for \(near.host) does not apply to \(domain): Alamofire looks hosts up exactly, "
            + "case included"]
    }
}
