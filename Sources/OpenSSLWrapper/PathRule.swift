internal import COpenSSL
import FoundationEssentials

/// Rules above pinctl's own checks that judge a path OpenSSL built to an anchor: a platform's verifier rules (DESIGN
/// §12), given by the caller as swift-nio-ssl takes verification policy from above. A refused path is a failure like
/// any other, so path building tries another (`PathBacktracking`).
public protocol PathRule: Sendable {
    /// What the rules say of `path` (leaf first) ending at `anchor` at `time`.
    func judge(_ path: [X509Certificate], anchor: X509Certificate, at time: Date) -> PathRuling

    /// Whether a trust anchor's own validity dates count (Android's PKIX validation never checks them).
    var checksAnchorValidity: Bool { get }

    /// What of the rules decides a verification, in words that differ when the rules do, for `VerificationMemo` to key
    /// it by; nil when the same chain and store may be judged otherwise (rules that read more than the path, such as
    /// SCTs a server sent).
    var memoKey: String? { get }

    /// Whether a remembered verification is reused only at the very time it was made: rules whose verdict may change
    /// at times other than the certificates' own dates (Apple's CT: a log turning read-only, an SCT not yet dated).
    var memoRequiresSameTime: Bool { get }
}

extension PathRule {
    public var memoRequiresSameTime: Bool { false }
}

/// A rule's word on a path: the certificate it refuses and why, and what it could not decide.
public struct PathRuling: Sendable {
    /// The index in the path of the certificate refused, and the rule and its source in words.
    public var refusal: (depth: Int, message: String)?
    public var warnings: [String]

    public init(refusal: (depth: Int, message: String)? = nil, warnings: [String] = []) {
        self.refusal = refusal
        self.warnings = warnings
    }
}

extension VerificationFailure {
    /// The code of a failure a `PathRule` gives: OpenSSL's for a check the application makes.
    public static let pathRuleCode = X509_V_ERR_APPLICATION_VERIFICATION
}
