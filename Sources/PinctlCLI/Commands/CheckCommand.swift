import ArgumentParser
import Checking
import FileAccess
import FoundationEssentials
import Glibc
import PolicyEngine

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Connect to servers and judge the chains they present by a pinning policy or a policy file.",
        discussion: """
            The handshake itself verifies nothing: the presented chain is judged afterwards by the policy, with the \
            semantics of the library chosen (AFNetworking by default), or by every app of a policy file that covers \
            the target. Targets are checked concurrently; results print in the order given, each as soon as those \
            before it are out.

            Examples:
              pinctl check --config pinctl.yaml
              pinctl check api.example.com --mode publickey --pins pins/
              pinctl check api.example.com:8443 '[2001:db8::1]:443' --format json
              pinctl check --config pinctl.yaml --platform android@24-36 --platform ios@17
              pinctl check --targets-from fleet.txt --quiet --mode publickey --pins pins/
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

    @Option(help: ArgumentHelp(
        "Also check the targets listed in a file (- for standard input), one per line; # starts a comment. Read as "
            + "the checks go, so a list of any length costs no more memory than a short one.", valueName: "file"))
    var targetsFrom: String?

    @OptionGroup(title: "Connection") var connection: ConnectionOptions
    @OptionGroup(title: "Edges") var edges: EdgeOptions
    @OptionGroup(title: "Revocation") var revocation: RevocationOptions

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "How many targets to check at once (default \(CheckCommand.defaultJobs)); fewer, with a warning, when the "
            + "open-file limit (ulimit -n) cannot hold them: a silent target holds one of them until its --timeout.",
        valueName: "n"))
    var jobs: Int?

    @OptionGroup(title: "Policy") var policyOptions: PolicyOptions
    @OptionGroup(title: "Platforms") var platformOptions: PlatformOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Output") var reportFiles: ReportFileOptions

    /// Targets checked at once by default, at most. A check mostly waits (on the network, or on a silent target until
    /// its timeout), so the default is sized for waiting, not for the CPUs; the runner goes beyond 16 threads only for
    /// targets that wait, so fast ones do not pay for the rest (about 90 KB each). Measured with 300 loopback targets
    /// of which 50 are silent, at --timeout 2: 16 at once took 8.1 s, 128 take 2.6 s, as 256 do; 1,000 loopback
    /// targets peak at 31 MiB (42 MiB when all 128 ran from the start).
    static let defaultJobs = 128

    func validate() throws {
        guard !targets.isEmpty || targetsFrom != nil || policyOptions.config != nil else {
            throw ValidationError(
                "missing target: give host, host:port or an https:// URL (or --targets-from FILE, or --config FILE)")
        }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs \(jobs): must be from 1 to 256") }
    }

    func run() throws {
        try reportFiles.refuseExistingFiles()
        let reporter = Reporter(output: output, files: reportFiles)
        let plan: CheckPlan
        let list: (LineInput, name: String)?
        do throws(InputError) {
            plan = try CheckPlan(policyOptions.settings, platforms: platformOptions.settings).rememberingVerifications()
            list = try targetsFrom.map(TargetSource.open)
        } catch {
            reporter.emitError(FailureReport(target: targets.map(\.description).joined(separator: " "), code: "input",
                                             message: error.description))
            reporter.finish()
            try ExitStatus.inputError.exit()
        }
        let targets = self.targets.isEmpty && list == nil ? plan.fileTargets : self.targets
        guard !targets.isEmpty || list != nil else {
            reporter.emitError(FailureReport(target: nil, code: "input", message:
                "\(policyOptions.config ?? "the policy file") lists no targets: give them on the command line"))
            reporter.finish()
            try ExitStatus.inputError.exit()
        }

        let source = TargetSource(targets, list: list?.0, listName: list?.name ?? "")
        let progress = Progress(total: source.knownCount,
                                enabled: (source.knownCount ?? 2) > 1 && !output.quiet && Terminal.stderrIsTerminal)
        // Only the summary of a policy-file run outlives a target: it names the targets each app breaks on.
        var summary = BreakageSummary()
        var status = ExitStatus.trusted
        let live = LiveSettings(connection: connection.settings, edges: edges.settings,
                                revocation: revocation.revocation, revocationDestination: revocation.destination)
        ConcurrentRunner.run(jobs: fittedJobs, next: source.next, work: { input in
            switch input {
            case .target(let target):
                return plan.check(target, live)
            case .unreadable(let text, let message):
                return [TargetResult.failed(FailureReport(target: text, code: "input", message: message))]
            }
        }, inOrder: { (index: Int, results: [TargetResult]) in
            progress.clear()
            reporter.emit(results)
            status = ExitStatus.combined([status] + results.map(ExitStatus.init))
            if plan.isPolicyFile { summary.add(results.reports) }
            if edges.splitsTargets { reporter.emitEdgeSummary(EdgeSummary(results)) }
            reporter.flush()
            progress.advance(to: index + 1)
        })
        progress.clear()
        status = ExitStatus.combined([status, reporter.finish(summary: plan.isPolicyFile ? summary : nil)])
        if status != .trusted { try status.exit() }
    }

    /// `--jobs`, or the default, lowered to what the open-file limit can hold: two descriptors an edge (a proxy's
    /// connection, or a revocation fetch, beside the target's), as many edges a job as it checks at once, beside 32
    /// the process itself keeps open. An explicit value beyond it would fail targets with "too many open files"; it
    /// is lowered with a warning instead.
    private var fittedJobs: Int {
        let asked = jobs
        let defaultJobs = Self.defaultJobs
        var limit = rlimit()
        // rlim_t.max: RLIM_INFINITY, which Swift cannot import (-1 in an unsigned type).
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return asked ?? defaultJobs
        }
        let files = Int(clamping: limit.rlim_cur)
        let perJob = 2 * (edges.splitsTargets ? LiveSettings.parallelEdges : 1)
        let fitting = max(1, (files - 32) / perJob)
        guard let asked else { return min(defaultJobs, fitting) }
        guard asked > fitting else { return asked }
        Terminal.warning("--jobs \(asked): checking \(fitting) targets at once instead: the open-file limit "
            + "(ulimit -n) is \(files), and each may hold \(perJob) files beside the 32 pinctl keeps")
        return fitting
    }
}

/// A one-line `checked 12/200` counter on stderr (`checked 12` when the list is read as it goes), only on a terminal.
final class Progress: @unchecked Sendable {
    // Used from the one thread that prints results.
    let total: Int?
    let enabled: Bool

    init(total: Int?, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func advance(to done: Int) {
        guard enabled else { return }
        if let total {
            guard done < total else { return }
            Terminal.write(Array("checked \(done)/\(total)…".utf8), to: STDERR_FILENO)
        } else {
            Terminal.write(Array("checked \(done)…".utf8), to: STDERR_FILENO)
        }
    }

    func clear() {
        guard enabled else { return }
        Terminal.write(Array("\r\u{1B}[K".utf8), to: STDERR_FILENO)
    }
}
