import Foundation
import OpenSSLWrapper

/// `-[AFSecurityPolicy evaluateServerTrust:forDomain:]` on OpenSSL: DESIGN §2's five steps, in order.
public struct TrustEvaluator: Sendable {
    public let policy: SecurityPolicy
    /// The anchors standing for the system store: OpenSSL's default paths, or `--ca-file` / `--ca-path`.
    public let anchors: TrustStore
    public let time: Date
    /// Certificates expiring within this many days are warned about.
    public let warnDays: Int

    public init(policy: SecurityPolicy, anchors: TrustStore, time: Date, warnDays: Int = 30) {
        self.policy = policy
        self.anchors = anchors
        self.time = time
        self.warnDays = warnDays
    }

    /// Evaluates the presented certificates (leaf first) for `domain` (nil: no name is checked).
    public func evaluate(presented: [X509Certificate], domain: String?) -> Evaluation {
        var run = Run(evaluator: self, presented: presented, domain: domain)
        let verdict = run.verdict()
        return Evaluation(
            verdict: verdict,
            chain: run.reportChain,
            presentedCount: presented.count,
            time: time,
            warnings: run.verificationWarnings
                + Warnings(evaluator: self, domain: domain, chain: run.reportChain, verdict: verdict).all)
    }

    func validate(_ presented: [X509Certificate], untrusted: [X509Certificate], store: TrustStore, domain: String?)
        -> ChainVerification
    {
        ChainVerifier.verify(
            leaf: presented[0], untrusted: untrusted, store: store,
            options: VerificationOptions(time: time, domain: domain, checksServerIdentity: policy.validatesDomainName))
    }
}

/// One evaluation's state: the system validation is run at most once and shared by the steps that need it.
private struct Run {
    let evaluator: TrustEvaluator
    let presented: [X509Certificate]
    let domain: String?
    private var systemResult: ChainVerification?
    private(set) var builtChain: [X509Certificate] = []
    /// What the validations met along the way (unreadable trust store entries), each said once.
    private(set) var verificationWarnings: [String] = []

    init(evaluator: TrustEvaluator, presented: [X509Certificate], domain: String?) {
        self.evaluator = evaluator
        self.presented = presented
        self.domain = domain
    }

    var policy: SecurityPolicy { evaluator.policy }

    /// The presented certificates, then what the anchors added to the chain that was built.
    var reportChain: [X509Certificate] { presented + builtChain.filter { !presented.contains($0) } }

    mutating func verdict() -> Evaluation.Verdict {
        guard !presented.isEmpty else { return .rejected(.noCertificate) }
        if let contradiction = checkContradiction() { return contradiction }
        if policy.mode == .none { return evaluateModeNone() }
        if let failure = checkDefaultTrustGate() { return failure }
        switch policy.mode {
        case .certificate: return evaluateCertificatePinning()
        case .publicKey: return evaluatePublicKeyPinning()
        case .none: return evaluateModeNone()
        }
    }

    /// Step 1: AFNetworking refuses to validate a domain for invalid certificates unless something is pinned.
    private func checkContradiction() -> Evaluation.Verdict? {
        guard domain != nil, policy.allowInvalidCertificates, policy.validatesDomainName,
            policy.mode == .none || policy.pinCount == 0
        else { return nil }
        return .rejected(.contradiction)
    }

    /// Step 2.
    private mutating func evaluateModeNone() -> Evaluation.Verdict {
        let system = validateAgainstSystem()
        if policy.allowInvalidCertificates || system.isValid { return .trusted(nil) }
        return .rejected(reason(for: system.failure!))
    }

    /// Step 3: without allowInvalidCertificates the chain must be trusted by the system anchors first.
    private mutating func checkDefaultTrustGate() -> Evaluation.Verdict? {
        guard !policy.allowInvalidCertificates else { return nil }
        let system = validateAgainstSystem()
        guard let failure = system.failure else { return nil }
        return .rejected(reason(for: failure))
    }

    /// Step 4: the pinned certificates are the only anchors; dates and (when validated) the domain still count.
    private mutating func evaluateCertificatePinning() -> Evaluation.Verdict {
        let pinned = policy.pinnedCertificates
        guard !pinned.isEmpty else { return .rejected(.noPins(.certificate)) }
        let pinnedCertificates = pinned.map(\.certificate)
        // Apple stops at the first pinned certificate; OpenSSL would try to extend a pinned leaf through the
        // intermediates above it, so only the presented certificates below the first pinned one are offered.
        let firstPinned = presented.firstIndex(where: pinnedCertificates.contains) ?? presented.count
        let untrusted = firstPinned <= 1 ? [] : Array(presented[1..<firstPinned])
        // OpenSSL looks a leaf's issuer up among the anchors before it looks up the leaf itself (that is its last
        // resort), so with the leaf's issuer pinned too it would go on past a pinned leaf: a pinned leaf is the
        // only anchor. A pinned certificate above the leaf is found as an issuer, and the chain ends there.
        let anchors = firstPinned == 0 ? [presented[0]] : pinnedCertificates
        let store = TrustStore.anchors(anchors, origin: PinnedAnchors.origin)
        let result = evaluator.validate(presented, untrusted: untrusted, store: store, domain: domain)
        builtChain = result.chain
        note(result.warnings)
        if let failure = result.failure {
            return .rejected(RejectionReason.from(failure, domain: domain, anchors: store.origin))
        }
        // AFNetworking walks the chain from the anchor down and accepts the first pinned certificate it meets.
        for certificate in result.chain.reversed() {
            if let pin = pinned.first(where: { $0.certificate == certificate }) {
                return .trusted(PinMatch(source: pin.source, certificateIndex: reportChain.firstIndex(of: certificate)!))
            }
        }
        return .rejected(.pinNotInChain)
    }

    /// Step 5: the chain built against the system anchors, valid or not, as far as it got.
    private mutating func evaluatePublicKeyPinning() -> Evaluation.Verdict {
        let keys = policy.pinnedPublicKeys
        let candidates = validateAgainstSystem().chain
        guard !keys.isEmpty else { return .rejected(.noPins(.publicKey)) }
        for certificate in candidates {
            if let pin = keys.first(where: { $0.sha256 == certificate.spkiSHA256 }) {
                return .trusted(PinMatch(source: pin.source, certificateIndex: reportChain.firstIndex(of: certificate)!))
            }
        }
        return .rejected(.publicKeyNotPinned(pins: keys))
    }

    private mutating func validateAgainstSystem() -> ChainVerification {
        if let systemResult { return systemResult }
        let result = evaluator.validate(
            presented, untrusted: Array(presented.dropFirst()), store: evaluator.anchors, domain: domain)
        systemResult = result
        builtChain = result.chain
        note(result.warnings)
        return result
    }

    private mutating func note(_ warnings: [String]) {
        verificationWarnings += warnings.filter { !verificationWarnings.contains($0) }
    }

    private func reason(for failure: VerificationFailure) -> RejectionReason {
        RejectionReason.from(failure, domain: domain, anchors: evaluator.anchors.origin)
    }
}

enum PinnedAnchors {
    /// How certificate mode's anchors are named in messages.
    static let origin = "the pinned certificates"
}
