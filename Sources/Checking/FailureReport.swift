import FoundationEssentials
import PolicyEngine

/// When no evaluation could happen: DESIGN §5's `error` verdict, with the same identifying fields as a judged one.
public struct FailureReport: Sendable {
    /// nil when the command line itself was wrong (no target to name).
    public let target: String?
    public let domain: String?
    public let time: Date?
    public let app: AppIdentity?
    public let library: Library?
    public let policy: [(String, SummaryValue)]?
    /// `input` (exit 2), or a connection failure's kind (`dns`, `refused`, … exit 3).
    public let code: String
    public let message: String
    /// The edge that failed, when `check` split the target into edges.
    public var edge: Edge?

    public init(target: String?, domain: String? = nil, time: Date? = nil, app: AppIdentity? = nil,
                policy: (any TrustPolicy)? = nil, code: String, message: String) {
        self.target = target
        self.domain = domain
        self.time = time
        self.app = app
        library = policy?.library
        self.policy = policy?.summary
        self.code = code
        self.message = message
    }
}
