import Foundation
import OpenSSLWrapper
import PolicyEngine

/// Prints reports in the chosen format: text for people, or one JSON object per line.
struct Reporter {
    let output: OutputOptions

    /// Prints what one chain came to and returns its exit status.
    func emit(_ judgement: Judge.Judgement, target: String) -> ExitStatus {
        switch judgement {
        case .reports(let reports) where reports.count == 1 && reports[0].app == nil:
            emit(reports[0])
        case .reports(let reports):
            emit(group: reports)
        case .inputError(let message), .uncovered(let message):
            emitError(target: target, domain: nil, code: "input", message: message)
            return .inputError
        }
        if case .reports(let reports) = judgement { return ExitStatus.combined(reports.map { ExitStatus($0.evaluation) }) }
        return .inputError
    }

    func emit(_ report: TargetReport) {
        switch output.format {
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
        switch output.format {
        case .json:
            for report in reports { print(report.json.serialized) }
        case .text where output.quiet:
            reports.forEach(emitQuiet)
        case .text:
            guard let first = reports.first else { return }
            var lines = headerLines(first)
            let widest = reports.max { $0.evaluation.chain.count < $1.evaluation.chain.count } ?? first
            lines += chainLines(widest.evaluation.chain, presentedCount: widest.evaluation.presentedCount,
                                at: widest.evaluation.time)
            lines += AppTable(reports: reports).lines
            print(lines.joined(separator: "\n"))
            for report in reports {
                for warning in report.warnings { Terminal.warning("\(report.app?.name ?? report.target): \(warning)") }
            }
        }
    }

    private func emitQuiet(_ report: TargetReport) {
        let who = report.app.map { "\(report.target) (\($0.name))" } ?? report.target
        for (index, line) in report.evaluation.rejectionMessageLines.enumerated() {
            if index == 0 {
                Terminal.error("\(who): rejected: \(line)")
            } else {
                Terminal.printError("  " + Terminal.safe(line))
            }
        }
    }

    /// The closing line of a policy-file run: which apps, and which of their versions, a chain breaks.
    func emitSummary(_ summary: BreakageSummary) {
        guard output.format == .text, !output.quiet || !summary.broken.isEmpty else { return }
        print(summary.line)
    }

    /// When no evaluation could happen: `verdict: error` with DESIGN §2's code.
    func emitError(target: String?, domain: String?, code: String, message: String, edge: Edge? = nil) {
        if output.format == .json {
            print(Self.errorObject(target: target, domain: domain, code: code, message: message, edge: edge).serialized)
        }
        Terminal.error(message)
    }

    /// The JSON of an `error` verdict; without a target (the command line itself was wrong) only verdict and reason.
    static func errorObject(target: String?, domain: String?, code: String, message: String, edge: Edge? = nil)
        -> JSONValue
    {
        let identity: [(String, JSONValue)] = target.map { [("target", .string($0)), ("domain", JSONValue(domain))] } ?? []
        return .object(identity + [
            ("verdict", .string("error")),
            ("reason", .object([("code", .string(code)), ("message", .string(message))])),
        ] + (edge.map { [("edge", $0.json)] } ?? []))
    }

    private func text(_ report: TargetReport) -> String {
        let evaluation = report.evaluation
        var lines = headerLines(report)
        lines += chainLines(evaluation.chain, presentedCount: evaluation.presentedCount, at: evaluation.time)
        lines += verdictLines(report)
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
    private func chainLines(_ chain: [X509Certificate], presentedCount: Int, at time: Date) -> [String] {
        chain.enumerated().flatMap { index, certificate -> [String] in
            let description = CertificateDescription(certificate, at: time)
            let origin = index < presentedCount ? "presented" : "from the trust anchors"
            return [
                "  #\(index) \(Terminal.safe(certificate.subject))  " + Terminal.paint("[\(origin)]", .dim),
                "     valid  \(description.validity)",
                "     pin    \(PinFormat.pin(of: certificate))",
            ]
        }
    }
}
