
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
            return [("evaluator", .text(evaluator.kind))] + evaluator.flags.map { ($0.name, .flag($0.value)) }
                + [("pins", .count(pins.count))]
        }
        return [("allHostsMustBeEvaluated", .flag(allHostsMustBeEvaluated)), ("evaluators", .count(evaluators.count)),
                ("pins", .count(pins.count))]
    }

    public func appliedPins(for host: String?) -> AppliedPins {
        let evaluator = evaluatorForEveryHost ?? host.flatMap { host in evaluators.first { $0.host == host }?.evaluator }
        guard let evaluator else { return .none("no evaluator for \(host ?? "this host")") }
        func entries(_ evaluator: AlamofireEvaluator) -> [AppliedPins.Entry] {
            switch evaluator {
            case .pinnedCertificates(let certificates, _, _, _): certificates.map { .init(.certificate($0), .certificate) }
            case .publicKeys(let certificates, _, _): certificates.map { .init(.certificate($0), .key) }
            case .composite(let inner): inner.flatMap(entries)
            case .standard, .disabled, .revocation: []
            }
        }
        return AppliedPins(entries(evaluator), notPinnedBecause: "the \(evaluator.kind) evaluator pins nothing")
    }

    public func hasRule(for host: String) -> Bool { evaluators.contains { $0.host == host } }

    public var ruleHosts: [String] { evaluators.map(\.host) }

    public func evaluate(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome {
        var warnings: [String] = []
        let evaluator: AlamofireEvaluator
        if let single = evaluatorForEveryHost {
            evaluator = single
        } else if let host = domain, let found = evaluators.first(where: { $0.host == host }) {
            evaluator = found.evaluator
        } else if allHostsMustBeEvaluated {
            return .rejected(.noEvaluator(host: domain ?? "(none)"), nil, warnings: lookupWarnings(domain))
        } else {
            // .performDefaultHandling: URLSession validates against the system with the host.
            let validation = oracle.validate(against: .platform, checks: .server(host: domain))
            if let failure = validation.failure {
                let reason = RejectionReason.from(failure, domain: domain, anchors: validation.anchorsDescription)
                return .rejected(reason, validation, warnings: lookupWarnings(domain))
            }
            return .trusted(.notPinned("no evaluator for \(domain ?? "this host"): URLSession's default handling"),
                            validation, warnings: lookupWarnings(domain))
        }
        if domain == nil { warnings.append("no host name was given: validateHost checks no name") }
        var trust = AlamofireTrust(oracle: oracle, host: domain)
        let rejection = trust.run(evaluator)
        warnings += trust.warnings
        let validation = trust.lastValidation
        if let rejection { return PolicyOutcome(.rejected(rejection), validation: validation, warnings: warnings) }
        // The grounds: the first pin that matched, else a validation that passed, else nothing was checked
        // (DisabledTrustEvaluator, a composite of nothing else, or none at all).
        let basis: TrustBasis
        if let match = trust.matches.first {
            basis = .pinMatched(match)
        } else if trust.validated {
            basis = .validated
        } else {
            basis = .unchecked(evaluator.kind == "disabled" ? "DisabledTrustEvaluator"
                : "no evaluator of the composite checks anything")
        }
        var outcome = PolicyOutcome.trusted(basis, validation, warnings: warnings)
        outcome.revocation = trust.revocation
        return outcome
    }

    /// Keys that look meant for `domain` but that the dictionary lookup never matches: another case, a port, a
    /// trailing dot, a wildcard (a literal `*`, unless the app subclasses ServerTrustManager).
    private func lookupWarnings(_ domain: String?) -> [String] {
        guard let domain else { return [] }
        return evaluators.map(\.host).filter { $0 != domain && Self.looksMeant($0, for: domain) }.map { key in
            "the evaluator for \(key) does not apply to \(domain): Alamofire looks hosts up exactly (a dictionary "
                + "subscript: case, port, a trailing dot and * all count)"
        }
    }

    private static func looksMeant(_ key: String, for domain: String) -> Bool {
        var name = Substring(key.lowercased())
        if let colon = name.lastIndex(of: ":"), name[name.index(after: colon)...].allSatisfy(\.isNumber) {
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        let host = domain.lowercased()
        return name == host || (name.hasPrefix("*.") && host.hasSuffix(name.dropFirst()))
    }
}
