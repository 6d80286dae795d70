import FoundationEssentials
import OpenSSLWrapper

extension PolicyFile {
    /// One app's verdict on one chain.
    public struct AppEvaluation: Sendable {
        public let app: App
        public let evaluation: Evaluation
    }

    /// Judges the `presented` chain (leaf first) for `domain` by each of `apps` in turn, in their order, all sharing
    /// one `ChainOracle`, so that a validation several apps ask for runs once. `check`, `verify` and `serve` judge
    /// through here; it never touches the network.
    public static func evaluate(
        _ apps: [App], presented: [X509Certificate], domain: String?, evaluator: PolicyEvaluator
    ) -> [AppEvaluation] {
        let oracle = ChainOracle(presented: presented, context: evaluator.context)
        return apps.map { app in
            AppEvaluation(app: app, evaluation: evaluator.evaluate(app.policy, oracle: oracle, domain: domain))
        }
    }

    /// Why no app judges `domain`, as `check` and `serve` word it.
    public func uncoveredMessage(_ domain: String?) -> String {
        "no app of \(path) covers \(domain ?? "a chain without a host"): add the host to an app's hosts, or give a "
            + "policy that names it"
    }
}
