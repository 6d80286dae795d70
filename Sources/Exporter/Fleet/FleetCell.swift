import Checking
import FoundationEssentials
import PolicyEngine

/// One (target, app, platform range)'s latest verdict: what the fleet view shows in a cell.
struct FleetCell: Sendable {
    enum Verdict: String, Sendable {
        case trusted, rejected, error
    }

    /// The versions the verdict holds for (`android@24-37`); nil when the file names no platforms.
    let platform: String?
    let verdict: Verdict
    /// The rejection's code, the trust's basis (`pin-matched`, `failed-open`, …) or the error's code.
    let reason: String
    /// A sentence for a person: the trust's explanation, or the error's message; empty when the code says it all.
    let detail: String
    /// When the first rotation that breaks the app is due (`pinctl lint`'s forecast); nil when none does.
    let breaksOn: Date?
    let probedAt: Date

    /// Each app's cells from a probe: its reports, an error for each app that got no verdict.
    static func cells(of result: ProbeResult, coveringApps: [String]) -> [String: [FleetCell]] {
        var cells: [String: [FleetCell]] = [:]
        switch result.outcome {
        case .failed(let code, let message):
            for app in coveringApps {
                cells[app] = [FleetCell(platform: nil, verdict: .error, reason: code, detail: message, breaksOn: nil,
                                        probedAt: result.startedAt)]
            }
        case .judged(_, let reports, let failures):
            for report in reports {
                let trusted = report.evaluation.isTrusted
                let detail: String
                switch report.evaluation.verdict {
                case .trusted(let basis): detail = basis.explanation ?? ""
                case .rejected(let rejection):
                    detail = (rejection.context + rejection.reason.messageLines(
                        chain: report.evaluation.chain, at: report.evaluation.time).prefix(1)).joined(separator: ": ")
                }
                cells[report.app?.name ?? "", default: []].append(FleetCell(
                    platform: report.platform?.name, verdict: trusted ? .trusted : .rejected,
                    reason: ProbeMetrics.reason(report.evaluation), detail: detail,
                    breaksOn: ProbeResult.breaksOn(report, domain: result.domain), probedAt: result.startedAt))
            }
            for failure in failures {
                cells[failure.app?.name ?? "", default: []].append(FleetCell(
                    platform: nil, verdict: .error, reason: failure.code, detail: failure.message, breaksOn: nil,
                    probedAt: result.startedAt))
            }
        }
        return cells
    }

    /// Worst first: rejected, then errors, then the trusted that break soonest, then those nothing breaks.
    var severity: (Int, Double) {
        switch verdict {
        case .rejected: (0, 0)
        case .error: (1, 0)
        case .trusted: breaksOn.map { (2, $0.timeIntervalSince1970) } ?? (3, 0)
        }
    }
}
