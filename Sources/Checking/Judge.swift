import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// Who judges a presented chain: the one policy the flags give, or every app of a policy file that covers the
/// domain (or only the app named, as `serve`'s `/probe?app=` asks). Built once per command or probe; judging a chain
/// never touches the network.
enum Judge: Sendable {
    case flags(PolicySetup)
    case file(PolicyFile, PolicyEvaluator, onlyApp: String? = nil)

    /// The apps of the policy file that judge `domain`, in file order; empty for a policy given by flags.
    func apps(covering domain: String?) -> [PolicyFile.App] {
        guard case .file(let file, _, let only) = self, let domain else { return [] }
        return file.apps(covering: domain).filter { only == nil || $0.name == only }
    }

    /// Judges `presented` for `domain`, every policy sharing one `ChainOracle`, so a validation runs once: one report
    /// per policy judging it (one, or one per covering app), or the one input failure when the policy cannot be built
    /// for the domain (TrustKit refusing it as a pinned domain) or no app of the file covers it.
    func judge(target: String, domain: String?, presented: [X509Certificate], tls: TLSInfo?) -> [TargetResult] {
        let inputFailure = { (message: String) in
            [TargetResult.failed(FailureReport(target: target, code: "input", message: message))]
        }
        switch self {
        case .flags(let setup):
            do throws(InputError) {
                let policy = try setup.policy(domain)
                let sent = setup.evaluator.with(sentSCTs: tls?.sentSCTs ?? [])
                // The command line gives no app target: Android's default for one from API 24 applies.
                let evaluator = PolicyEvaluator(context: sent.context.forApp(targetSdk: nil))
                let evaluation = evaluator.evaluate(policy, presented: presented, domain: domain)
                return [.judged(TargetReport(target: target, domain: domain, policy: policy, evaluation: evaluation,
                                             extraWarnings: setup.warnings, tls: tls))]
            } catch {
                return inputFailure(error.description)
            }
        case .file(let file, let evaluator, let only):
            let apps = self.apps(covering: domain)
            guard !apps.isEmpty else {
                let message = only.map { "app \($0) does not cover \(domain ?? "a chain without a host")" }
                return inputFailure(message ?? file.uncoveredMessage(domain))
            }
            let evaluator = evaluator.with(sentSCTs: tls?.sentSCTs ?? [])
            return PolicyFile.evaluate(apps, presented: presented, domain: domain, evaluator: evaluator).map {
                .judged(TargetReport(target: target, domain: domain, policy: $0.app.policy, evaluation: $0.evaluation,
                                     extraWarnings: [], tls: tls, app: AppIdentity($0.app)))
            }
        }
    }

    /// Whether anchors are given as the user's roots, beside a platform version's store.
    var hasUserRoots: Bool {
        switch self {
        case .flags(let setup): setup.evaluator.context.platformRules?.userRoots != nil
        case .file(_, let evaluator, _): evaluator.context.platformRules?.userRoots != nil
        }
    }

    /// The evaluation time every report of the run carries.
    var time: Date {
        switch self {
        case .flags(let setup): setup.evaluator.context.time
        case .file(_, let evaluator, _): evaluator.context.time
        }
    }

    /// When no chain could be had from a target: one failure per policy that would have judged it.
    func failures(target: String, domain: String?, code: String, message: String) -> [FailureReport] {
        switch self {
        case .flags(let setup):
            let policy = try? setup.policy(domain)
            return [FailureReport(target: target, domain: domain, time: time, policy: policy, code: code,
                                  message: message)]
        case .file:
            let apps = self.apps(covering: domain)
            guard !apps.isEmpty else {
                return [FailureReport(target: target, domain: domain, time: time, code: code, message: message)]
            }
            return apps.map {
                FailureReport(target: target, domain: domain, time: time, app: AppIdentity($0), policy: $0.policy,
                              code: code, message: message)
            }
        }
    }

    /// The same judge at `time`, and of a policy file only `onlyApp` when one is named: what a long-running caller
    /// (`serve`, built once per policy load) changes for each check. The anchors and platform rules are kept as
    /// built, so nothing is read again.
    func at(_ time: Date, onlyApp: String? = nil) -> Judge {
        changingContext(onlyApp: onlyApp) { $0.time = time }
    }

    /// The same judge reusing the verifications `memo` remembers: for a long-running caller (`serve`), which judges
    /// the same chains again and again. Only where running a verification again must give the same result.
    func remembering(_ memo: VerificationMemo) -> Judge {
        changingContext { $0.verificationMemo = memo }
    }

    /// The same judge on another platform version: its store where the system store stands, beside the roots the
    /// user added (the anchors given, kept from the version it was built for), and its rules.
    func on(_ platform: PlatformStore) -> Judge {
        changingContext { context in
            let userRoots = context.platformRules?.userRoots
            context.platformAnchors = userRoots.map { AnchorSettings.anchors(on: platform, userRoots: $0) }
                ?? platform.roots
            context.platformRules = platform.rules(userRoots: userRoots)
            context.platform = platform.snapshot
        }
    }

    /// The same judge, its evaluation context changed by `change` (and of a policy file only `onlyApp`, when named).
    private func changingContext(onlyApp: String? = nil, _ change: (inout EvaluationContext) -> Void) -> Judge {
        switch self {
        case .flags(let setup):
            return .flags(PolicySetup(evaluator: setup.evaluator.changingContext(change), warnings: setup.warnings,
                                      policy: setup.policy))
        case .file(let file, let evaluator, let only):
            return .file(file, evaluator.changingContext(change), onlyApp: onlyApp ?? only)
        }
    }

    /// The policy file's targets, for `check --config` without targets.
    var fileTargets: [Target] {
        if case .file(let file, _, _) = self { return file.targets }
        return []
    }

    var isPolicyFile: Bool {
        if case .file = self { return true }
        return false
    }
}

extension PolicyEvaluator {
    /// The same evaluator (anchors, warning window, platform rules, memo), its context changed by `change`.
    func changingContext(_ change: (inout EvaluationContext) -> Void) -> PolicyEvaluator {
        var context = context
        change(&context)
        return PolicyEvaluator(context: context)
    }

    /// The same evaluator, its platform rules given the SCTs the server sent; itself when it sent none.
    func with(sentSCTs: [[UInt8]]) -> PolicyEvaluator {
        guard !sentSCTs.isEmpty, context.platformRules != nil else { return self }
        return changingContext { $0.platformRules?.sentSCTs = sentSCTs }
    }
}
