import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// Who judges a presented chain: the one policy the flags give, or every app of a policy file that covers the
/// domain. Built once per command; judging a chain never touches the network.
enum Judge: Sendable {
    case flags(PolicySetup)
    case file(PolicyFile, PolicyEvaluator)

    /// From the command line: `--config FILE` (its anchors unless `--ca-file`/`--ca-path` are given) or the flags.
    init(_ options: PolicyOptions) throws(InputError) {
        guard let path = options.config else {
            self = .flags(try options.setup())
            return
        }
        let file: PolicyFile
        do {
            file = try PolicyFile.load(path)
        } catch {
            throw InputError(error.description)
        }
        let context = try options.context(anchorsFromFile: (file.caFiles, file.caPaths))
        self = .file(file, PolicyEvaluator(context: context))
    }

    /// What one chain came to.
    enum Judgement: Sendable {
        /// One report per policy judging it (one, or one per covering app).
        case reports([TargetReport])
        /// The policy could not be built for this domain (e.g. TrustKit refuses it as a pinned domain).
        case inputError(String)
        /// No app of the policy file covers the domain.
        case uncovered(String)
    }

    /// Judges `presented` for `domain`, every policy sharing one `ChainOracle`, so a validation runs once.
    func judge(target: String, domain: String?, presented: [X509Certificate], tls: TLSInfo?) -> Judgement {
        switch self {
        case .flags(let setup):
            do throws(InputError) {
                let policy = try setup.policy(domain)
                let evaluation = setup.evaluator.evaluate(policy, presented: presented, domain: domain)
                return .reports([TargetReport(target: target, domain: domain, policy: policy, evaluation: evaluation,
                                              extraWarnings: setup.warnings, tls: tls)])
            } catch {
                return .inputError(error.description)
            }
        case .file(let file, let evaluator):
            let apps = domain.map(file.apps(covering:)) ?? []
            guard !apps.isEmpty else { return .uncovered(file.uncoveredMessage(domain)) }
            return .reports(PolicyFile.evaluate(apps, presented: presented, domain: domain, evaluator: evaluator).map {
                TargetReport(target: target, domain: domain, policy: $0.app.policy, evaluation: $0.evaluation,
                             extraWarnings: [], tls: tls, app: AppIdentity($0.app))
            })
        }
    }

    /// The evaluation time every report of the run carries.
    var time: Date {
        switch self {
        case .flags(let setup): setup.evaluator.context.time
        case .file(_, let evaluator): evaluator.context.time
        }
    }

    /// When no chain could be had from a target: one failure per policy that would have judged it.
    func failures(target: String, domain: String?, code: String, message: String) -> [FailureReport] {
        switch self {
        case .flags(let setup):
            let policy = try? setup.policy(domain)
            return [FailureReport(target: target, domain: domain, time: time, policy: policy, code: code, message: message)]
        case .file(let file, _):
            let apps = domain.map(file.apps(covering:)) ?? []
            guard !apps.isEmpty else {
                return [FailureReport(target: target, domain: domain, time: time, code: code, message: message)]
            }
            return apps.map {
                FailureReport(target: target, domain: domain, time: time, app: AppIdentity($0), policy: $0.policy,
                              code: code, message: message)
            }
        }
    }

    /// The policy file's targets, for `check --config` without targets.
    var fileTargets: [Target] {
        if case .file(let file, _) = self { return file.targets }
        return []
    }

    var isPolicyFile: Bool {
        if case .file = self { return true }
        return false
    }
}
