import FoundationEssentials
import OpenSSLWrapper

/// What every evaluation of a run shares: the anchors standing for the platform's store, the time, the warning window.
public struct EvaluationContext: Sendable {
    /// The system store (OpenSSL's default paths), or the CA files given in its place; on a platform, its store and
    /// the roots its user added, as far as the app trusts them (`forApp(targetSdk:)`).
    public var platformAnchors: TrustStore
    /// The evaluation time; never the clock. A long-running caller (`serve`) sets it per check.
    public var time: Date
    /// Certificates expiring within this many days are warned about.
    public let warnDays: Int
    /// The verifier rules of the platform version judged on (DESIGN §12); nil without `--platform`. A live check
    /// gives them the SCTs its server sent.
    public var platformRules: PlatformRules?
    /// The platform version judged on (DESIGN §12); nil without `--platform`. Where a library's pinning does not
    /// exist on it, the app is judged by the platform's default trust (`LibraryAvailability`).
    public var platform: StoreSnapshot?
    /// The roots the user added stand beside the platform's store but this app does not trust them unless its
    /// configuration opts in (`forApp(targetSdk:)`): said when a chain is then untrusted.
    public var userRootsNeedOptIn = false
    /// The Android API level an app targets when its entry gives none (`--target-sdk`); nil: 24 or later.
    public var defaultTargetSdk: Int?
    /// Verifications a long-running caller (`serve`) reuses across the chains it judges; nil runs every one.
    public var verificationMemo: VerificationMemo?

    public init(platformAnchors: TrustStore, time: Date, warnDays: Int = 30, platformRules: PlatformRules? = nil) {
        self.platformAnchors = platformAnchors
        self.time = time
        self.warnDays = warnDays
        self.platformRules = platformRules
    }
}

/// The outcome of one evaluation: a verdict is a value, never a thrown error.
public struct Evaluation: Sendable {
    public let verdict: Verdict
    /// What the server presented.
    public let presented: PresentedChain
    /// What the deciding validation built from it.
    public let builtChain: BuiltChain
    /// The chain a result shows: the presented certificates in the order sent, then those the anchors supplied to
    /// complete the built chain. Its indices are the ones messages name (`certificate #2`).
    public let chain: [X509Certificate]
    public let time: Date
    public internal(set) var warnings: [String]
    /// A revocation check the policy's library asks for (Alamofire's revocation evaluator); nil for none.
    public var revocationRequest: RevocationRequest? = nil
    /// The paths the deciding validation tried and refused (DESIGN §12): when the chain is trusted and this is not
    /// empty, `builtChain` is a path OpenSSL did not build first.
    public var refusedPaths: [RefusedPath] = []

    init(verdict: Verdict, presented: PresentedChain, builtChain: BuiltChain, time: Date, warnings: [String],
         revocationRequest: RevocationRequest? = nil, refusedPaths: [RefusedPath] = []) {
        self.verdict = verdict
        self.presented = presented
        self.builtChain = builtChain
        chain = presented.certificates + builtChain.filter { !presented.contains($0) }
        self.time = time
        self.warnings = warnings
        self.revocationRequest = revocationRequest
        self.refusedPaths = refusedPaths
    }

    /// The same evaluation with another verdict and warnings (revocation evidence applied).
    func with(verdict: Verdict, warnings: [String]) -> Evaluation {
        Evaluation(verdict: verdict, presented: presented, builtChain: builtChain, time: time, warnings: warnings,
                   revocationRequest: revocationRequest, refusedPaths: refusedPaths)
    }

    /// Whether the certificate at `index` of `chain` was presented, not supplied by the anchors.
    public func wasPresented(_ index: Int) -> Bool { index < presented.count }

    public var isTrusted: Bool {
        if case .trusted = verdict { return true }
        return false
    }

    public var rejection: Rejection? {
        if case .rejected(let rejection) = verdict { return rejection }
        return nil
    }

    public var trustBasis: TrustBasis? {
        if case .trusted(let basis) = verdict { return basis }
        return nil
    }

    public var matchedPin: PinMatch? {
        if case .pinMatched(let match)? = trustBasis { return match }
        return nil
    }

    /// The index in `chain` of a certificate (a matched pin's, a rejection's).
    public func index(of certificate: X509Certificate) -> Int? { chain.firstIndex(of: certificate) }

    /// The index in `chain` of the certificate a rejection names.
    public var rejectedCertificateIndex: Int? {
        guard let reason = rejection?.reason else { return nil }
        return reason.certificate.flatMap(index(of:))
    }

    /// The rejection's sentence, naming certificates by their index in `chain`.
    public var rejectionMessage: String? { rejection.map { rejectionMessageLines(of: $0).joined(separator: "\n") } }

    /// The rejection's message line by line (see `RejectionReason.messageLines`).
    public var rejectionMessageLines: [String] { rejection.map(rejectionMessageLines(of:)) ?? [] }

    private func rejectionMessageLines(of rejection: Rejection) -> [String] {
        var lines = rejection.reason.messageLines(chain: chain, at: time)
        if !rejection.context.isEmpty, !lines.isEmpty {
            lines[0] = rejection.context.joined(separator: ": ") + ": " + lines[0]
        }
        return lines
    }
}

/// Judges presented chains by a policy in a context: the one entry point every command uses.
public struct PolicyEvaluator: Sendable {
    public let context: EvaluationContext

    public init(context: EvaluationContext) { self.context = context }

    /// Evaluates the presented certificates (leaf first) for `domain` (nil: no name is checked).
    public func evaluate(_ policy: any TrustPolicy, presented: [X509Certificate], domain: String?) -> Evaluation {
        evaluate(policy, oracle: ChainOracle(presented: presented, context: context), domain: domain)
    }

    /// Evaluates the oracle's chain: several policies judging one chain share its validations.
    public func evaluate(_ policy: any TrustPolicy, oracle: ChainOracle, domain: String?) -> Evaluation {
        guard !oracle.presented.isEmpty else {
            return Evaluation(verdict: .rejected(Rejection(.noCertificate)), presented: PresentedChain([]),
                              builtChain: BuiltChain([]), time: context.time, warnings: [])
        }
        let first = oracle.requests.count
        let outcome = if let platform = context.platform, let absent = policy.library.definition.absence(on: platform) {
            PlatformDefaultTrust.evaluate(oracle, domain: domain, library: policy.library, absence: absent)
        } else {
            policy.evaluate(oracle, domain: domain)
        }
        let presented = PresentedChain(oracle.presented)
        let built = outcome.validation?.chain ?? []
        let builtChain = BuiltChain(built.isEmpty ? [oracle.presented[0]] : built)
        let evaluation = Evaluation(verdict: outcome.verdict, presented: presented, builtChain: builtChain,
                                    time: context.time, warnings: [], revocationRequest: outcome.revocation,
                                    refusedPaths: outcome.validation?.refusedPaths ?? [])
        var warnings: [String] = []
        for warning in oracle.requests[first...].flatMap(\.warnings) + outcome.warnings
            + expiryWarnings(evaluation.chain) + backupWarning(policy, domain, builtChain)
            + userRootsWarning(outcome.verdict)
        where !warnings.contains(warning) {
            warnings.append(warning)
        }
        return evaluation.with(verdict: outcome.verdict, warnings: warnings)
    }

    /// The chain against the anchors alone: no library, no host name, no pin — what `chain` shows and `diagnose`
    /// explains pins against. Trusted (`validated`) when the presented certificates lead to an anchor.
    public func validate(_ presented: [X509Certificate]) -> Evaluation {
        guard let leaf = presented.first else {
            return Evaluation(verdict: .rejected(Rejection(.noCertificate)), presented: PresentedChain([]),
                              builtChain: BuiltChain([]), time: context.time, warnings: [])
        }
        let oracle = ChainOracle(presented: presented, context: context)
        let validation = oracle.validate(against: .platform, checks: .none)
        let verdict: Verdict = validation.failure.map {
            .rejected(Rejection(RejectionReason.from($0, domain: nil, anchors: validation.anchorsDescription)))
        } ?? .trusted(.validated)
        let evaluation = Evaluation(verdict: verdict, presented: PresentedChain(presented),
                                    builtChain: BuiltChain(validation.chain.isEmpty ? [leaf] : validation.chain),
                                    time: context.time, warnings: [], refusedPaths: validation.refusedPaths)
        var warnings: [String] = []
        for warning in validation.warnings + expiryWarnings(evaluation.chain) where !warnings.contains(warning) {
            warnings.append(warning)
        }
        return evaluation.with(verdict: verdict, warnings: warnings)
    }

    /// Every pin in today's chain leaves nothing for the next one: said with the events that then break the policy,
    /// from the same forecast `lint` makes, so the commands never disagree.
    private func backupWarning(_ policy: any TrustPolicy, _ domain: String?, _ chain: BuiltChain) -> [String] {
        let pins = policy.appliedPins(for: domain)
        let forecast = RotationForecast(pins: pins, builtChain: chain)
        guard !pins.entries.isEmpty, forecast.attribution.allSatisfy({ $0.position != nil }) else { return [] }
        let breaking = forecast.outcomes.filter { $0.outcome == .breaks }.map { RotationForecast.describe($0.event) }
        let consequence = breaking.isEmpty ? "" : ": " + breaking.joined(separator: ", ") + " would break this policy"
        return ["no backup pin: every pin is in today's chain" + consequence]
    }

    /// Why roots given as the user's did not count, when the chain is untrusted without them.
    private func userRootsWarning(_ verdict: Verdict) -> [String] {
        guard context.userRootsNeedOptIn, case .rejected(let rejection) = verdict,
              case .untrustedChain = rejection.reason else { return [] }
        return ["the roots given as the user's (--ca-file, anchors:) are not trusted here: from API 24 an app trusts "
            + "user-added CAs only when it targets API 23 or lower (targetSdk:, --target-sdk) or its Network Security "
            + "Configuration names <certificates src=\"user\"/>"]
    }

    /// Certificates of the chain that have expired or expire within the warning window.
    private func expiryWarnings(_ chain: [X509Certificate]) -> [String] {
        chain.enumerated().compactMap { index, certificate in
            Self.expiry(of: certificate, what: "certificate #\(index)", at: context.time, warnDays: context.warnDays)
        }
    }

    /// "… expired on …" or "… expires in N day(s), on …"; nil when the certificate is good beyond the window.
    public static func expiry(of certificate: X509Certificate, what: String, at time: Date, warnDays: Int) -> String? {
        if certificate.notAfter < time {
            return "\(what) \(certificate.subject) expired on \(Timestamp.iso8601(certificate.notAfter))"
        }
        let days = certificate.daysLeft(at: time)
        guard days < warnDays else { return nil }
        return "\(what) \(certificate.subject) expires in \(days) day(s), on \(Timestamp.iso8601(certificate.notAfter))"
    }
}

extension X509Certificate {
    /// Whole days from `time` to notAfter, rounded down: negative once expired.
    public func daysLeft(at time: Date) -> Int {
        Int((notAfter.timeIntervalSince(time) / 86_400).rounded(.down))
    }
}
