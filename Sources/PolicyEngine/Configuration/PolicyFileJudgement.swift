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
        // Apps whose context is the same share an oracle; an app that does not trust the user's roots needs its own.
        var oracles: [Bool: ChainOracle] = [:]
        return apps.map { app in
            let context = evaluator.context.forApp(targetSdk: app.targetSdk)
            let oracle = oracles[context.userRootsNeedOptIn] ?? ChainOracle(presented: presented, context: context)
            oracles[context.userRootsNeedOptIn] = oracle
            var evaluation = PolicyEvaluator(context: context).evaluate(app.policy, oracle: oracle, domain: domain)
            if context.platform == nil, let minSdk = app.minSdk {
                evaluation.warnings.append("minSdk \(minSdk) (\(app.location)): no store snapshot of Android was "
                    + "found, so this app is judged on the trust store given, not on each Android version from API "
                    + "\(minSdk) on (pinctl stores says where snapshots are looked for)")
            }
            return AppEvaluation(app: app, evaluation: evaluation)
        }
    }

    /// Why no app judges `domain`, as `check` and `serve` word it.
    public func uncoveredMessage(_ domain: String?) -> String {
        "no app of \(path) covers \(domain ?? "a chain without a host"): add the host to an app's hosts, or give a "
            + "policy that names it"
    }
}
