import ArgumentParser
import Checking
import FoundationEssentials
import PolicyEngine
import TextSyntax

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Which pin carries the load today, and what the next rotation does to each app.",
        discussion: """
            For every app and host: which certificate of today's built chain each pin matches, the forecast for \
            four events (renew-leaf, rekey-leaf, new-intermediate, new-ca: survives, needs-backup or breaks), the \
            date the first break is due, and findings with what to do. Exit 1 on any error finding. Each app is \
            judged as `check` judges it on a live target (revocation included), and as `verify` does with --chain.

            Examples:
              pinctl lint --config pinctl.yaml
              pinctl lint --config pinctl.yaml --chain next-chain.pem --host api.example.com
              pinctl lint api.example.com --mode publickey --pins pins/ --horizon 90
              pinctl lint --config pinctl.yaml --platform android@24-36
            """
    )

    @Argument(
        help: ArgumentHelp("host, host:port, [v6addr]:port or https:// URL (default: the policy file's targets).",
                           valueName: "target"),
        transform: Target.init(argument:))
    var targets: [Target] = []

    @Option(name: .customLong("chain"), help: ArgumentHelp(
        "Certificate files instead of live targets: PEM or DER, leaf first; repeatable.", valueName: "file"))
    var chainFiles: [String] = []

    @Option(help: ArgumentHelp("With --chain: the host the chain is for.", valueName: "name"))
    var host: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Warn about pins and pin sets that expire within this many days.", valueName: "days"))
    var horizon: Int = 400

    @OptionGroup(title: "Connection") var connection: ConnectionOptions
    @OptionGroup(title: "Revocation") var revocation: RevocationOptions
    @OptionGroup(title: "Revocation offline (with --chain)") var evidence: OfflineEvidenceOptions
    @OptionGroup(title: "Policy") var policyOptions: PolicyOptions
    @OptionGroup(title: "Platforms") var platformOptions: PlatformOptions
    @OptionGroup(title: "Output") var output: OutputOptions

    func validate() throws {
        guard horizon >= 0 else { throw ValidationError("--horizon \(horizon): must be 0 or more") }
        guard targets.isEmpty || chainFiles.isEmpty else { throw ValidationError("give targets or --chain, not both") }
        if !chainFiles.isEmpty, host == nil { throw ValidationError("--chain needs --host: the host the chain is for") }
        if let host, let problem = DomainName.syntaxError(host) { throw ValidationError("--host \(host): \(problem)") }
        if chainFiles.isEmpty, !evidence.crlFiles.isEmpty || evidence.ocspResponse != nil {
            throw ValidationError("--crl-file and --ocsp-response are for --chain: a live target's are fetched")
        }
        if !chainFiles.isEmpty, revocation.revocation != .none {
            throw ValidationError("--revocation is for live targets: with --chain give --crl-file or --ocsp-response")
        }
        if chainFiles.isEmpty, targets.isEmpty, policyOptions.config == nil {
            throw ValidationError("missing target: give targets, --chain FILE --host NAME, or --config FILE")
        }
    }

    func run() throws {
        let reporter = LintReporter(output: output)
        var statuses: [ExitStatus] = []
        do throws(InputError) {
            let plan = try CheckPlan(policyOptions.settings, platforms: platformOptions.settings)
            if !chainFiles.isEmpty {
                let presented = try ChainFiles.certificates(chainFiles)
                let evidence = try OfflineEvidence(crlFiles: evidence.crlFiles, ocspResponse: evidence.ocspResponse)
                let results = plan.judge(presented, target: chainFiles.joined(separator: ","), domain: host,
                                         evidence: evidence)
                statuses += lint(results, reporter)
            } else {
                let targets = self.targets.isEmpty ? plan.fileTargets : self.targets
                guard !targets.isEmpty else { throw InputError("the policy file lists no targets: give them") }
                let live = LiveSettings(connection: connection.settings, revocation: revocation.revocation,
                                        revocationDestination: revocation.destination)
                for target in targets {
                    statuses += lint(plan.check(target, live), reporter)
                }
            }
        } catch {
            Terminal.error(error.description)
            statuses.append(.inputError)
        }
        reporter.finish()
        let status = ExitStatus.combined(statuses)
        if status != .trusted { try status.exit() }
    }

    /// Lints each report; a chain that could not be judged (or an app whose evidence could not be had) is said once
    /// on stderr however many apps it is for, and is an `error` object per app in JSON.
    private func lint(_ results: [TargetResult], _ reporter: LintReporter) -> [ExitStatus] {
        results.runs.flatMap { run -> [ExitStatus] in
            switch run {
            case .reports(let reports):
                return reports.map { report in
                    let result = LintResult(policy: report.policy, host: report.domain, evaluation: report.evaluation,
                                            horizonDays: horizon)
                    reporter.emit(LintReport(report: report, result: result))
                    return result.hasError ? .rejected : .trusted
                }
            case .failures(let failures):
                var said: Set<String> = []
                for failure in failures where said.insert(failure.message).inserted { Terminal.error(failure.message) }
                failures.forEach(reporter.emit)
                return failures.map(\.status)
            }
        }
    }
}
