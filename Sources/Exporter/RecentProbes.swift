import FoundationEssentials
import Synchronization

/// The last probes, newest first, for the status page.
final class RecentProbes: Sendable {
    private let limit: Int
    private let probes = Mutex([RecentProbe]())

    init(limit: Int) { self.limit = limit }

    func add(_ result: ProbeResult) {
        let probe = RecentProbe(result)
        probes.withLock { list in
            list.insert(probe, at: 0)
            if list.count > limit { list.removeLast(list.count - limit) }
        }
    }

    var newestFirst: [RecentProbe] { probes.withLock { $0 } }
}

/// What the status page shows of one probe. Kept instead of the probe's result, which holds the presented
/// certificates and every app's report: those are freed when the probe is answered, while still in the cache, not
/// `limit` probes later (freeing the oldest result was 2.6% of a probe's CPU in `pinctl serve`; issue #22).
struct RecentProbe: Sendable {
    let startedAt: Date
    let target: String
    let domain: String
    let outcomeWord: String
    let seconds: Double
    /// "ios-afn trusted, android on android@24 rejected (untrusted-chain)", or the error's code and message.
    let details: String

    init(_ result: ProbeResult) {
        startedAt = result.startedAt
        target = result.target.description
        domain = result.domain
        outcomeWord = result.outcomeWord
        seconds = result.seconds
        switch result.outcome {
        case .failed(let code, let message):
            details = "\(code): \(message)"
        case .judged(_, let reports, let failures):
            details = (reports.map { report in
                let name = (report.app?.name ?? report.target) + (report.platform.map { " on \($0.name)" } ?? "")
                return report.evaluation.isTrusted
                    ? "\(name) trusted" : "\(name) rejected (\(ProbeMetrics.reason(report.evaluation)))"
            } + failures.map { "\($0.app?.name ?? "?") error (\($0.code))" }).joined(separator: ", ")
        }
    }
}
