import ArgumentParser
import Foundation
import OpenSSLWrapper
import PolicyEngine

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Connect to servers and evaluate the chains they present against a pinning policy.",
        discussion: """
            The handshake itself verifies nothing: the presented chain is judged afterwards with the policy, \
            exactly as AFSecurityPolicy would. Targets are checked concurrently; results print in the order given.

            Examples:
              pinctl check api.example.com --mode publickey --pins pins/
              pinctl check api.example.com:8443 '[2001:db8::1]:443' --format json
              pinctl check https://cdn.example.com/ --mode certificate --pins root.cer
              pinctl check 10.0.0.5:443 --servername api.example.com --mode publickey \\
                  --pins pins/
            """
    )

    @Argument(
        help: ArgumentHelp("host, host:port, [v6addr]:port or https:// URL; several are checked concurrently.",
            valueName: "target"),
        transform: Target.init(argument:))
    var targets: [Target]

    @OptionGroup(title: "Connection") var connection: ConnectionOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("How many targets to check at once.", valueName: "n"))
    var jobs: Int = 16

    @OptionGroup(title: "Policy") var policyOptions: PolicyOptions
    @OptionGroup(title: "Output") var output: OutputOptions

    func validate() throws {
        guard !targets.isEmpty else { throw ValidationError("missing target: give host, host:port or an https:// URL") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs \(jobs): must be from 1 to 256") }
    }

    func run() throws {
        let reporter = Reporter(output: output)
        let setup: PolicySetup
        do throws(InputError) {
            setup = try policyOptions.setup()
        } catch {
            reporter.emitError(target: targets.map(\.description).joined(separator: " "), domain: nil, code: "input", message: error.description)
            try ExitStatus.inputError.exit()
        }

        let progress = Progress(total: targets.count, enabled: targets.count > 1 && !output.quiet && Terminal.stderrIsTerminal)
        let statuses = ConcurrentRunner.run(count: targets.count, jobs: jobs, work: { index in
            check(targets[index], setup: setup)
        }, inOrder: { (index: Int, outcome: CheckOutcome) -> ExitStatus in
            progress.clear()
            let status = outcome.emit(with: reporter)
            progress.advance(to: index + 1)
            return status
        })
        progress.clear()
        let status = ExitStatus.combined(statuses)
        if status != .trusted { try status.exit() }
    }

    private func check(_ target: Target, setup: PolicySetup) -> CheckOutcome {
        let domain = connection.domain(for: target)
        do {
            let result = try connection.handshake(with: target)
            let evaluation = setup.evaluator.evaluate(setup.policy, presented: result.presented, domain: domain)
            return .evaluated(TargetReport(
                target: target.description, domain: domain, policy: setup.policy, evaluation: evaluation,
                extraWarnings: setup.warnings, tls: TLSInfo(result)))
        } catch {
            return .failed(target: target.description, domain: domain, error: error)
        }
    }
}

/// One target's result: a verdict, or why no evaluation could happen.
enum CheckOutcome: Sendable {
    case evaluated(TargetReport)
    case failed(target: String, domain: String, error: TLSConnectionError)

    func emit(with reporter: Reporter) -> ExitStatus {
        switch self {
        case .evaluated(let report):
            reporter.emit(report)
            return ExitStatus(report.evaluation)
        case .failed(let target, let domain, let error):
            reporter.emitError(target: target, domain: domain, code: error.kind.rawValue, message: error.message)
            return .connectionFailure
        }
    }
}

/// A one-line `checked 12/200` counter on stderr, only on a terminal.
final class Progress: @unchecked Sendable {
    // Used from the one thread that prints results.
    let total: Int
    let enabled: Bool

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func advance(to done: Int) {
        guard enabled, done < total else { return }
        FileHandle.standardError.write(Data("checked \(done)/\(total)…".utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
