import ArgumentParser
import Checking
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import TextSyntax

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Judge certificate files offline by a pinning policy or a policy file.",
        discussion: """
            The files are PEM bundles or DER, leaf first, concatenated in flag order (- is standard input). Use it \
            before a rotation: will the apps that pin today accept the chain you are about to deploy?

            Examples:
              pinctl verify --config pinctl.yaml --chain next.pem --host api.example.com
              pinctl verify --chain next.pem --host api.example.com --pins pins/ \\
                  --mode publickey
              pinctl verify --chain next.pem --host api.example.com --library trustkit \\
                  --pins pins/ --include-subdomains
              pinctl verify --chain next.pem --host api.example.com --pins pins/ \\
                  --platform android@24-36 --platform ios@17 --stores ~/pinctl-stores
              pinctl verify --chain leaf.pem --chain intermediate.pem \\
                  --host api.example.com --mode certificate --pins root.cer \\
                  --at 2027-01-01T00:00:00Z
            """
    )

    @Option(name: .customLong("chain"), help: ArgumentHelp(
        "A certificate file, PEM (one or more) or DER; repeat for more, leaf first.", valueName: "file"))
    var chainFiles: [String] = []

    @Option(help: ArgumentHelp("The domain to check: a host name or an IP address. None: no name is checked.",
        valueName: "name"))
    var host: String?

    @OptionGroup(title: "Revocation") var evidence: OfflineEvidenceOptions
    @OptionGroup(title: "Policy") var policyOptions: PolicyOptions
    @OptionGroup(title: "Platforms") var platformOptions: PlatformOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Output") var reportFiles: ReportFileOptions

    func validate() throws {
        guard !chainFiles.isEmpty else { throw ValidationError("missing --chain FILE: the certificates to evaluate") }
        if let host, let problem = DomainName.syntaxError(host) {
            throw ValidationError("--host \(host): \(problem)")
        }
    }

    func run() throws {
        try reportFiles.refuseExistingFiles()
        let reporter = Reporter(output: output, files: reportFiles)
        let target = chainFiles.joined(separator: ",")
        var status = ExitStatus.trusted
        do throws(InputError) {
            let presented = try ChainFiles.certificates(chainFiles)
            let plan = try CheckPlan(policyOptions.settings, platforms: platformOptions.settings)
            let evidence = try OfflineEvidence(crlFiles: evidence.crlFiles, ocspResponse: evidence.ocspResponse)
            let results = plan.judge(presented, target: target, domain: host, evidence: evidence)
            reporter.emit(results)
            status = ExitStatus.combined(results.map(ExitStatus.init))
            var summary = BreakageSummary()
            summary.add(results.reports)
            status = ExitStatus.combined([status, reporter.finish(summary: plan.isPolicyFile ? summary : nil)])
        } catch {
            reporter.emitError(FailureReport(target: target, domain: host, time: policyOptions.anchors.time,
                                             code: "input", message: error.description))
            reporter.finish()
            status = .inputError
        }
        if status != .trusted { try status.exit() }
    }
}
