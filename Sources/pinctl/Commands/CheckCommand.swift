import ArgumentParser
import Foundation
import OpenSSLWrapper
import PolicyEngine

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Connect to servers and judge the chains they present by a pinning policy or a policy file.",
        discussion: """
            The handshake itself verifies nothing: the presented chain is judged afterwards by the policy, with the \
            semantics of the library chosen (AFNetworking by default), or by every app of a policy file that covers \
            the target. Targets are checked concurrently; results print in the order given.

            Examples:
              pinctl check --config pinctl.yaml
              pinctl check api.example.com --mode publickey --pins pins/
              pinctl check api.example.com:8443 '[2001:db8::1]:443' --format json
              pinctl check api.example.com --library okhttp --pin sha256/AAAA... \\
                  --pin sha256/BBBB...
              pinctl check 10.0.0.5:443 --servername api.example.com --mode publickey \\
                  --pins pins/
            """
    )

    @Argument(
        help: ArgumentHelp("host, host:port, [v6addr]:port or https:// URL; several are checked concurrently.",
            valueName: "target"),
        transform: Target.init(argument:))
    var targets: [Target] = []

    @OptionGroup(title: "Connection") var connection: ConnectionOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("How many targets to check at once.", valueName: "n"))
    var jobs: Int = 16

    @OptionGroup(title: "Policy") var policyOptions: PolicyOptions
    @OptionGroup(title: "Output") var output: OutputOptions

    func validate() throws {
        guard !targets.isEmpty || policyOptions.config != nil else {
            throw ValidationError("missing target: give host, host:port or an https:// URL (or --config FILE)")
        }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs \(jobs): must be from 1 to 256") }
    }

    func run() throws {
        let reporter = Reporter(output: output)
        let judge: Judge
        do throws(InputError) {
            judge = try Judge(policyOptions)
        } catch {
            reporter.emitError(FailureReport(target: targets.map(\.description).joined(separator: " "), code: "input",
                                             message: error.description))
            reporter.finish()
            try ExitStatus.inputError.exit()
        }
        let targets = self.targets.isEmpty ? judge.fileTargets : self.targets
        guard !targets.isEmpty else {
            reporter.emitError(FailureReport(target: nil, code: "input", message:
                "\(policyOptions.config ?? "the policy file") lists no targets: give them on the command line"))
            reporter.finish()
            try ExitStatus.inputError.exit()
        }

        let progress = Progress(total: targets.count, enabled: targets.count > 1 && !output.quiet && Terminal.stderrIsTerminal)
        var summary = BreakageSummary()
        let statuses = ConcurrentRunner.run(count: targets.count, jobs: jobs, work: { index in
            check(targets[index], judge: judge)
        }, inOrder: { (index: Int, outcome: CheckOutcome) -> ExitStatus in
            progress.clear()
            let status = outcome.emit(with: reporter)
            if case .judged(_, .reports(let reports)) = outcome, judge.isPolicyFile { summary.add(reports) }
            progress.advance(to: index + 1)
            return status
        })
        progress.clear()
        reporter.finish(summary: judge.isPolicyFile ? summary : nil)
        let status = ExitStatus.combined(statuses)
        if status != .trusted { try status.exit() }
    }

    private func check(_ target: Target, judge: Judge) -> CheckOutcome {
        let domain = connection.domain(for: target)
        do {
            let result = try connection.handshake(with: target)
            let judgement = judge.judge(target: target.description, domain: domain, presented: result.presented,
                                        tls: TLSInfo(result))
            return .judged(target: target.description, judgement)
        } catch {
            return .failed(judge.failures(target: target.description, domain: domain, code: error.kind.rawValue,
                                          message: error.message))
        }
    }
}

/// One target's result: the reports of the policies that judged its chain, or why none could.
enum CheckOutcome: Sendable {
    case judged(target: String, Judge.Judgement)
    case failed([FailureReport])

    func emit(with reporter: Reporter) -> ExitStatus {
        switch self {
        case .judged(let target, let judgement):
            return reporter.emit(judgement, target: target)
        case .failed(let failures):
            // One message on stderr, however many apps the target was for.
            failures.first.map(reporter.emitError)
            failures.dropFirst().forEach(reporter.emitQuietly)
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
