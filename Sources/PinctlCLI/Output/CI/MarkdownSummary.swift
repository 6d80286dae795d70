import Checking
import FoundationEssentials
import PolicyEngine

/// A run as a Markdown table for a CI job's summary (`--summary-file`, GitHub's `$GITHUB_STEP_SUMMARY`): a row per
/// (target, app, platform range) with the verdict, its reason and, for a trusted chain, the day the first rotation
/// that breaks the app is due (the forecast `pinctl lint` makes). Every cell of text from outside is a
/// `MarkdownText` code span.
struct MarkdownSummary {
    let items: [TargetResult]

    init(_ items: [TargetResult]) { self.items = items }

    var document: String {
        var lines = ["### pinctl", ""]
        var counts = (trusted: 0, rejected: 0, errors: 0)
        lines.append("| Target | App | Platform | Verdict | Reason | Breaks on |")
        lines.append("|---|---|---|---|---|---|")
        for item in items {
            // The verdict is pinctl's own words; every other cell is text from outside, a code span whole.
            let verdict: String
            let cells: [String]
            switch item {
            case .judged(let report):
                if report.evaluation.isTrusted {
                    counts.trusted += 1
                    verdict = "✅ trusted"
                } else {
                    counts.rejected += 1
                    verdict = "❌ rejected"
                }
                cells = [report.target, report.app?.name ?? "", report.platform?.name ?? "", reason(report),
                         breaksOn(report)]
            case .failed(let failure):
                counts.errors += 1
                verdict = "⚠️ error"
                cells = [failure.target ?? "", failure.app?.name ?? "", "", "\(failure.code): \(failure.message)", ""]
            }
            let escaped = cells.map(MarkdownText.codeSpan)
            lines.append("| " + (escaped[..<3] + [verdict] + escaped[3...]).joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("\(counts.trusted) trusted, \(counts.rejected) rejected, \(counts.errors) "
            + (counts.errors == 1 ? "error" : "errors"))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The reason code and its first line, or what trusted the chain.
    private func reason(_ report: TargetReport) -> String {
        switch report.evaluation.verdict {
        case .trusted(let basis): basis.code
        case .rejected(let rejection):
            rejection.reason.code + (report.evaluation.rejectionMessageLines.first.map { ": \($0)" } ?? "")
        }
    }

    /// "2027-03-01 (new-ca)": when the first rotation that breaks the app is due; empty when none does, or when the
    /// chain is not trusted today (it is broken already).
    private func breaksOn(_ report: TargetReport) -> String {
        guard report.evaluation.isTrusted, let domain = report.domain else { return "" }
        let forecast = RotationForecast(pins: report.policy.appliedPins(for: domain),
                                        builtChain: report.evaluation.builtChain)
        guard let date = forecast.breaksOn else { return "" }
        return Timestamp.day(date) + (forecast.breakingEvent.map { " (\($0.rawValue))" } ?? "")
    }
}
