import Checking
import FileAccess
import FoundationEssentials
import Glibc
import OpenSSLWrapper
import PolicyEngine

/// Prints results in the chosen format: text for people (with GitHub annotations on GitHub Actions), one JSON
/// object per line, or, once the run is over, one JUnit or SARIF document. Every format is a view of the same
/// results; none computes a verdict.
// @unchecked Sendable: used from the one thread that prints results in order.
final class Reporter: @unchecked Sendable {
    let output: OutputOptions
    /// What a JUnit, SARIF or Markdown document is made of, kept until `finish` when one is asked for.
    private var collected: [TargetResult] = []
    /// `::error` lines for GitHub Actions' annotations, in text mode there.
    private let annotates = ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true"

    /// The files the run's reports also go to.
    let files: ReportFileOptions

    init(output: OutputOptions, files: ReportFileOptions = ReportFileOptions()) {
        self.output = output
        self.files = files
    }

    /// Prints a target's results: the reports on each chain together (the chain once), and each failure's message
    /// once on stderr however many apps it is for (a failed connection is every app's, while evidence that could not
    /// be had may differ by app: the responder's, the staple).
    func emit(_ results: [TargetResult]) {
        for run in results.runs {
            switch run {
            case .reports(let reports) where reports.contains(where: { $0.platform != nil }):
                emit(platforms: reports)
            case .reports(let reports) where reports.count == 1 && reports[0].app == nil:
                emit(reports[0])
            case .reports(let reports):
                emit(group: reports)
            case .failures(let failures):
                var said: Set<String> = []
                for failure in failures {
                    if said.insert(failure.message).inserted { emitError(failure) } else { emitQuietly(failure) }
                }
            }
        }
    }

    func emit(_ report: TargetReport) {
        if annotates, output.format == .text { GitHubAnnotations.emit(.judged(report)) }
        keep([.judged(report)])
        switch output.format {
        case .junit, .sarif:
            break
        case .json:
            print(report.json.serialized)
        case .text where output.quiet:
            emitQuiet(report)
        case .text:
            print(text(report))
            for warning in report.warnings { Terminal.warning(warning) }
        }
    }

    /// Several apps judging one chain: the chain once, then a row per app, then why each rejection happened.
    private func emit(group reports: [TargetReport]) {
        emit(sharing: reports, label: { $0.app?.name ?? $0.target }) { reports in
            AppTable(reports: reports).lines + reports.flatMap { report in
                PathReport(evaluation: report.evaluation).lines(verbose: output.verbose)
                    .map { "  " + Terminal.safe("\(report.app?.name ?? report.target): \($0)") }
            }
        }
    }

    /// One chain judged on platform versions: the chain once, then a line per (app, platform range).
    private func emit(platforms reports: [TargetReport]) {
        emit(sharing: reports, label: \.platformName) { reports in
            reports.indices.map { index in
                let report = reports[index]
                // The range before, of the same app on the same platform: grouped ranges come in version order.
                let previous = index > 0 ? reports[index - 1] : nil
                let adjacent = previous.flatMap { previous in
                    previous.app?.name == report.app?.name && previous.platform?.platform == report.platform?.platform
                        ? previous : nil
                }
                return "  " + report.platformLine(after: adjacent)
            }
        }
    }

    /// Reports of one chain: in text, the chain once (the longest built, where stores completed it differently),
    /// then `rows`, then each report's warnings under `label`; every other format gives each report alone.
    private func emit(sharing reports: [TargetReport], label: (TargetReport) -> String,
                      rows: ([TargetReport]) -> [String]) {
        if annotates, output.format == .text { reports.forEach { GitHubAnnotations.emit(.judged($0)) } }
        keep(reports.map(TargetResult.judged))
        switch output.format {
        case .junit, .sarif:
            break
        case .json:
            for report in reports { print(report.json.serialized) }
        case .text where output.quiet:
            reports.forEach(emitQuiet)
        case .text:
            guard let first = reports.first else { return }
            var lines = headerLines(first)
            let widest = reports.max { $0.evaluation.chain.count < $1.evaluation.chain.count } ?? first
            // On platforms the stores differ: a certificate a store supplied is in some versions' only, and each
            // range's line names the root it reached.
            let storeOrigin = first.platform == nil ? "from the trust store" : "from a store: see each line's root"
            lines += chainLines(widest.evaluation, storeOrigin: storeOrigin)
            lines += rows(reports)
            print(lines.joined(separator: "\n"))
            for report in reports {
                for warning in report.warnings { Terminal.warning("\(label(report)): \(warning)") }
            }
        }
    }

    private func emitQuiet(_ report: TargetReport) {
        // The platform range follows the app too: `+` binds tighter than `??`, hence the brackets.
        let who = (report.app.map { "\(report.target) (\($0.name))" } ?? report.target)
            + (report.platform.map { " on \($0.label)" } ?? "")
        for (index, line) in report.evaluation.rejectionMessageLines.enumerated() {
            if index == 0 {
                Terminal.error("\(who): rejected: \(line)")
            } else {
                Terminal.printError("  " + Terminal.safe(line))
            }
        }
    }

    /// Keeps results for the documents written at the end, when one is asked for.
    private func keep(_ items: [TargetResult]) {
        if output.format == .junit || output.format == .sarif || files.asksForAny { collected += items }
    }

    /// The end of the run: the closing line of a policy-file run in text (which apps, and which of their versions,
    /// a chain breaks), or the JUnit or SARIF document of everything emitted; then the files `--sarif-file` and
    /// `--summary-file` name. Returns `inputError` when one of those cannot be written (said on stderr), for the
    /// exit status: a CI job must not pass without the report it asked for.
    @discardableResult
    func finish(summary: BreakageSummary? = nil) -> ExitStatus {
        printDocument(summary: summary)
        var status = ExitStatus.trusted
        for (document, path) in files.newFiles {
            let bytes: [UInt8] = switch document {
            case .sarif: Array((SARIFReport(collected).json.serialized + "\n").utf8)
            case .junit: Array(JUnitReport(collected).document)
            case .json: Array(collected.map { $0.json.serialized + "\n" }.joined().utf8)
            }
            do {
                try OutputFile(path: path, option: document.rawValue).write(bytes, force: false)
            } catch {
                Terminal.error(error.description)
                status = .inputError
            }
        }
        if let path = files.summaryFile {
            do throws(FileSystemError) {
                try FileSystem.append(Array(MarkdownSummary(collected).document.utf8), to: path)
            } catch {
                Terminal.error("--summary-file \(path): \(error.reason)")
                status = .inputError
            }
        }
        return status
    }

    private func printDocument(summary: BreakageSummary?) {
        switch output.format {
        case .text:
            guard let summary, !summary.isEmpty, !output.quiet || !summary.broken.isEmpty else { return }
            print(summary.line)
        case .junit:
            Terminal.write(Array(JUnitReport(collected).document), to: STDOUT_FILENO)
        case .sarif:
            print(SARIFReport(collected).json.serialized)
        case .json:
            break
        }
    }

    /// Hands what is printed so far on to the reader at once: a long run's results stream out as they come, even
    /// into a pipe, which would otherwise hold them until a buffer fills.
    func flush() {
        guard output.format == .text || output.format == .json else { return }
        // nil: every output stream; naming `stdout` would touch a C global Swift 6 cannot prove safe.
        fflush(nil)
    }

    /// A further failure for the same target (another app of the policy file): recorded, not said again on stderr.
    func emitQuietly(_ failure: FailureReport) {
        keep([.failed(failure)])
        if output.format == .json { print(failure.json.serialized) }
    }

    /// When no evaluation could happen: `verdict: error` with DESIGN §2's code, and the message on stderr.
    func emitError(_ failure: FailureReport) {
        if annotates, output.format == .text { GitHubAnnotations.emit(.failed(failure)) }
        keep([.failed(failure)])
        if output.format == .json { print(failure.json.serialized) }
        Terminal.error(failure.message)
    }

    private func text(_ report: TargetReport) -> String {
        let evaluation = report.evaluation
        var lines = headerLines(report)
        lines += chainLines(evaluation)
        lines += verdictLines(report)
        lines += PathReport(evaluation: evaluation).lines(verbose: output.verbose).map { "  " + Terminal.safe($0) }
        return lines.joined(separator: "\n")
    }

    /// The target, the domain checked and the TLS parameters.
    private func headerLines(_ report: TargetReport) -> [String] {
        let domain = report.domain.map { " for \(Terminal.safe($0))" } ?? " (no domain checked)"
        var lines = [Terminal.paint(report.target, .bold) + domain]
        if let edge = report.edge { lines.append("  edge: " + Terminal.safe(edge.label)) }
        if let tls = report.tls {
            lines.append("  \(tls.version), \(tls.cipher)")
            if let note = tls.clientCertificateNote { lines.append("  " + note) }
        }
        return lines
    }

    /// TRUSTED or REJECTED with the policy in a few words, and why.
    func verdictLines(_ report: TargetReport) -> [String] {
        let evaluation = report.evaluation
        switch evaluation.verdict {
        case .trusted(let basis):
            var line = Terminal.paint("TRUSTED", .green) + "  " + Terminal.safe(report.policyLine)
            if let match = evaluation.matchedPin {
                let index = evaluation.index(of: match.certificate).map { " #\($0)" } ?? ""
                line += ", pin " + Terminal.safe(match.source.description) + " matched certificate\(index)"
            } else if let why = basis.explanation {
                line += ": " + Terminal.safe(why)
            }
            return [line]
        case .rejected(let rejection):
            var lines = [Terminal.paint("REJECTED", .red) + "  " + Terminal.safe(report.policyLine)]
            lines += evaluation.rejectionMessageLines.map { "  " + Terminal.safe($0) }
            let listsPins: Bool
            switch rejection.reason {
            case .publicKeyNotPinned, .pinNotInChain, .contradiction: listsPins = true
            default: listsPins = false
            }
            if !listsPins, !report.policy.pins.isEmpty {
                // OkHttp's model: the configured pins beside the chain's, so the fix is visible at a glance.
                lines.append("  pinned:")
                lines += report.policy.pins.map { "    " + Terminal.safe("\($0.description) (\($0.source))") }
            }
            return lines
        }
    }

    /// Index, subject, who supplied it, validity with days left and the SPKI pin of every certificate.
    private func chainLines(_ evaluation: Evaluation, storeOrigin: String = "from the trust store") -> [String] {
        evaluation.chain.enumerated().flatMap { index, certificate -> [String] in
            let description = CertificateDescription(certificate, at: evaluation.time)
            let origin = evaluation.wasPresented(index) ? "presented" : storeOrigin
            return [
                "  #\(index) \(Terminal.safe(certificate.subject))  " + Terminal.paint("[\(origin)]", .dim),
                "     valid  \(description.validity)",
                "     pin    \(PinFormat.pin(of: certificate))",
            ]
        }
    }
}
