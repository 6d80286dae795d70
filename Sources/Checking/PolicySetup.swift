import PolicyEngine

/// What judging chains needs, built once from the command line: the evaluator, the policy for a domain (some
/// libraries' policies name the host they pin) and the warnings the command line itself gives rise to.
public struct PolicySetup: Sendable {
    public let evaluator: PolicyEvaluator
    public let warnings: [String]
    public let policy: @Sendable (_ domain: String?) throws(InputError) -> any TrustPolicy

    public init(evaluator: PolicyEvaluator, warnings: [String],
                policy: @escaping @Sendable (_ domain: String?) throws(InputError) -> any TrustPolicy) {
        self.evaluator = evaluator
        self.warnings = warnings
        self.policy = policy
    }
}
