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

    @Option(name: .customLong("crl-file"), help: ArgumentHelp(
        "Once the chain is trusted, check the leaf against this CRL of its issuer (DER or PEM); repeatable.",
        valueName: "file"))
    var crlFiles: [String] = []

    @OptionGroup(title: "Policy") var policyOptions: PolicyOptions
    @OptionGroup(title: "Output") var output: OutputOptions

    func validate() throws {
        guard !chainFiles.isEmpty else { throw ValidationError("missing --chain FILE: the certificates to evaluate") }
        if let host, let problem = DomainName.syntaxError(host) {
            throw ValidationError("--host \(host): \(problem)")
        }
    }

    func run() throws {
        let reporter = Reporter(output: output)
        let target = chainFiles.joined(separator: ",")
        let status: ExitStatus
        do throws(InputError) {
            let presented = try ChainFiles.certificates(chainFiles)
            let judge = try Judge(policyOptions)
            var judgement = judge.judge(target: target, domain: host, presented: presented, tls: nil)
            if case .reports(let reports) = judgement {
                let lists = try crlDocuments()
                judgement = .reports(reports.map { Self.checkRevocation($0, lists: lists) })
            }
            status = reporter.emit(judgement, target: target)
            var summary = BreakageSummary()
            if case .reports(let reports) = judgement { summary.add(reports) }
            reporter.finish(summary: judge.isPolicyFile ? summary : nil)
        } catch {
            reporter.emitError(FailureReport(target: target, domain: host, time: policyOptions.anchors.time,
                                             code: "input", message: error.description))
            reporter.finish()
            status = .inputError
        }
        if status != .trusted { try status.exit() }
    }

    /// The `--crl-file` documents, read whole; a file that cannot be read is an input error.
    private func crlDocuments() throws(InputError) -> [RevocationDocument] {
        try crlFiles.map { path throws(InputError) in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw InputError("--crl-file \(path): cannot be read")
            }
            return RevocationDocument(kind: .crl, source: "CRL file \(path)", content: .success([UInt8](data)))
        }
    }

    /// A report with the CRLs judged into it; a library that asks for a check verify cannot make (OCSP, a staple)
    /// hears why, as a warning (or a failure when it requires a positive answer).
    private static func checkRevocation(_ report: TargetReport, lists: [RevocationDocument]) -> TargetReport {
        let request = report.evaluation.revocationRequest
        if !lists.isEmpty {
            var evidence = RevocationEvidence(mode: .crl)
            evidence.documents = lists
            evidence.requiresPositiveResponse = request?.requiresPositiveResponse ?? false
            return report.applying(evidence)
        }
        guard let request, request.mode != .none else { return report }
        var evidence = RevocationEvidence(mode: request.mode == .stapled ? .ocsp : request.mode)
        evidence.requiresPositiveResponse = request.requiresPositiveResponse
        evidence.unavailable = "verify fetches nothing and sees no staple (give --crl-file)"
        return report.applying(evidence)
    }
}
