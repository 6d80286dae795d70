import FoundationEssentials
import Synchronization

/// What the exporter keeps of the field's reports: a rate they may arrive at, the last few judged for the fleet view,
/// and the hosts they are counted under. Everything bounded: a device, or anyone posting as one, grows nothing.
final class FieldReports: Sendable {
    /// The largest body read: a report holds one or two chains of PEM text, a few KiB each.
    static let maximumBytes = 64 * 1024
    /// Reports judged per second, on average; beyond them, 429. Judging one costs a verification per platform group.
    static let perSecond = 10.0
    /// Reports that may arrive at once after a quiet spell (a rotation that breaks every device at the same hour).
    static let burst = 100.0
    /// Distinct (app, host) pairs counted under their own host; the reports for any other host are counted under
    /// `host="other"`, so that an app covering every subdomain cannot be made to grow the metrics without end.
    static let hostsCounted = 1000

    private struct State {
        var tokens = FieldReports.burst
        var refilledAt: ContinuousClock.Instant
        var recent: [ReportJudgement] = []
        var counted: Set<String> = []
    }

    private let limit: Int
    private let state = Mutex(State(refilledAt: ContinuousClock.now))

    init(limit: Int) { self.limit = limit }

    /// Takes one report's place in the rate, if one is free.
    func admit() -> Bool {
        state.withLock { state in
            let now = ContinuousClock.now
            let elapsed = (now - state.refilledAt).components
            state.refilledAt = now
            state.tokens = min(Self.burst, state.tokens
                + (Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18) * Self.perSecond)
            guard state.tokens >= 1 else { return false }
            state.tokens -= 1
            return true
        }
    }

    /// Keeps a judged report for the fleet view, and gives the host its metrics count it under.
    func record(_ judgement: ReportJudgement) -> String {
        state.withLock { state in
            state.recent.insert(judgement, at: 0)
            if state.recent.count > limit { state.recent.removeLast(state.recent.count - limit) }
            let host = judgement.report.hostname.lowercased()
            let key = judgement.app + " " + host
            if state.counted.contains(key) { return host }
            guard state.counted.count < Self.hostsCounted else { return "other" }
            state.counted.insert(key)
            return host
        }
    }

    var newestFirst: [ReportJudgement] { state.withLock { $0.recent } }
}
