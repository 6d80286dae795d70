/// A policy's judgement of a chain: trusted, and on what grounds, or rejected, and why. Never a thrown error.
public enum Verdict: Sendable {
    case trusted(TrustBasis)
    case rejected(Rejection)
}

/// Why a chain is trusted: the grounds differ between libraries, and a CI gate must tell a pin that matched from a
/// pin set that failed open.
public enum TrustBasis: Sendable {
    /// The chain validated and the policy pins nothing (AFNetworking's mode none, Alamofire's default evaluator).
    case validated
    /// A pin matched a certificate of the chain.
    case pinMatched(PinMatch)
    /// The library applies no pins to this host (no pattern or domain matches it); the chain validated.
    case notPinned(String)
    /// The app's library does not exist on these versions (DESIGN §12: the NSC from API 24, NSPinnedDomains from iOS
    /// 14 / macOS 11), so the platform's default trust applies and nothing is pinned; the chain validated.
    case libraryAbsent(String)
    /// The pins were not enforced: an expired pin set, TrustKit's report-only mode, an anchor that overrides pins.
    case failedOpen(String)
    /// Nothing was checked (AFNetworking's allowInvalidCertificates in mode none, Alamofire's disabled evaluator).
    case unchecked(String)

    /// The JSON `trust` value: the same for `notPinned` and `libraryAbsent`, which the explanation tells apart.
    public var code: String {
        switch self {
        case .validated: "validated"
        case .pinMatched: "pin-matched"
        case .notPinned, .libraryAbsent: "not-pinned"
        case .failedOpen: "failed-open"
        case .unchecked: "unchecked"
        }
    }

    /// One sentence for the grounds other than a validated chain or a matched pin.
    public var explanation: String? {
        switch self {
        case .validated, .pinMatched: nil
        case .notPinned(let why), .failedOpen(let why), .unchecked(let why): why
        case .libraryAbsent(let why): "not pinned on these versions: " + why
        }
    }
}

/// A rejection: its reason, and where in a composite policy it arose.
public struct Rejection: Sendable {
    public let reason: RejectionReason
    /// Outermost first, e.g. ["evaluator 2 of 3 (public-keys)"]; empty for a policy that is not composite.
    public let context: [String]

    public init(_ reason: RejectionReason, context: [String] = []) {
        self.reason = reason
        self.context = context
    }

    /// The same rejection seen from an enclosing composite step.
    public func within(_ step: String) -> Rejection { Rejection(reason, context: [step] + context) }
}
