import Foundation
import OpenSSLWrapper
import PolicyEngine

/// Prints reports in the chosen format: text for people, or one JSON object per line.
struct Reporter {
    let output: OutputOptions

    func emit(_ report: TargetReport) {
        switch output.format {
        case .json:
            print(report.json.serialized)
        case .text where output.quiet:
            for (index, line) in report.evaluation.rejectionMessageLines.enumerated() {
                if index == 0 {
                    Terminal.error("\(report.target): rejected: \(line)")
                } else {
                    Terminal.printError("  " + Terminal.safe(line))
                }
            }
        case .text:
            print(text(report))
            for warning in report.warnings { Terminal.warning(warning) }
        }
    }

    /// When no evaluation could happen: `verdict: error` with DESIGN §2's code.
    func emitError(target: String, domain: String?, code: String, message: String) {
        if output.format == .json {
            print(Self.errorObject(target: target, domain: domain, code: code, message: message).serialized)
        }
        Terminal.error(message)
    }

    /// The JSON of an `error` verdict; without a target (the command line itself was wrong) only verdict and reason.
    static func errorObject(target: String?, domain: String?, code: String, message: String) -> JSONValue {
        let identity: [(String, JSONValue)] = target.map { [("target", .string($0)), ("domain", JSONValue(domain))] } ?? []
        return .object(identity + [
            ("verdict", .string("error")),
            ("reason", .object([("code", .string(code)), ("message", .string(message))])),
        ])
    }

    private func text(_ report: TargetReport) -> String {
        let evaluation = report.evaluation
        var lines: [String] = []
        let domain = report.domain.map { " for \(Terminal.safe($0))" } ?? " (no domain checked)"
        lines.append(Terminal.paint(report.target, .bold) + domain)
        if let tls = report.tls {
            lines.append("  \(tls.version), \(tls.cipher)")
            if let note = tls.clientCertificateNote { lines.append("  " + note) }
        }
        lines += chainLines(evaluation.chain, presentedCount: evaluation.presentedCount, at: evaluation.time)
        let policy = "mode \(report.policy.mode.rawValue), \(report.policy.pinCount) pin(s)"
        switch evaluation.verdict {
        case .trusted(let match):
            let pinned = match.map { ", pin \(Terminal.safe($0.source.description)) matched certificate #\($0.certificateIndex)" } ?? ""
            lines.append(Terminal.paint("TRUSTED", .green) + "  \(policy)\(pinned)")
        case .rejected(let reason):
            lines.append(Terminal.paint("REJECTED", .red) + "  \(policy)")
            lines += evaluation.rejectionMessageLines.map { "  " + Terminal.safe($0) }
            if case .publicKeyNotPinned = reason {} else if report.policy.mode != .none, report.policy.pinCount > 0 {
                // OkHttp's model: the configured pins beside the chain's, so the fix is visible at a glance.
                lines.append("  pinned:")
                lines += report.policy.pinnedCertificates.map {
                    "    \(PinFormat.pin(of: $0.certificate)) " + Terminal.safe("\($0.certificate.subject) (\($0.source))")
                }
                lines += report.policy.pinnedKeyHashes.map { "    \($0.text) (\(Terminal.safe($0.source.description)))" }
            }
        }
        return lines.joined(separator: "\n")
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
