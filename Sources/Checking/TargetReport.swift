import FoundationEssentials
import PolicyEngine

/// The app of a policy file a result is for, and where the file writes it.
public struct AppIdentity: Sendable {
    public let name: String
    public let versions: [String]
    public let file: String
    public let line: Int?

    public init(_ app: PolicyFile.App) {
        name = app.name
        versions = app.versions
        file = app.file
        line = app.line
    }
}

/// Everything printed about one (target, policy) pair: what was evaluated, how, and the outcome.
public struct TargetReport: Sendable {
    public let target: String
    public let domain: String?
    public let policy: any TrustPolicy
    public let evaluation: Evaluation
    /// Warnings from the command line (ignored hash pins, …) before the engine's own.
    public let extraWarnings: [String]
    public let tls: TLSInfo?
    /// The app of a policy file; nil for a policy given by flags.
    public var app: AppIdentity? = nil
    /// The edge the chain came from, when `check` split the target into edges.
    public var edge: Edge? = nil
    /// The platform versions the result holds for (`--platform`); nil when judged on the system store.
    public var platform: PlatformRange? = nil

    public init(target: String, domain: String?, policy: any TrustPolicy, evaluation: Evaluation,
                extraWarnings: [String], tls: TLSInfo?, app: AppIdentity? = nil) {
        self.target = target
        self.domain = domain
        self.policy = policy
        self.evaluation = evaluation
        self.extraWarnings = extraWarnings
        self.tls = tls
        self.app = app
    }

    public var warnings: [String] { extraWarnings + evaluation.warnings }
}
