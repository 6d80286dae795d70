import Checking

/// Results that print together: the reports on one chain (one target and edge: the chain printed once above a row
/// per app or platform range), or the failures of one target and edge (each message said once).
enum ResultRun {
    case reports([TargetReport])
    case failures([FailureReport])
}

extension [TargetResult] {
    /// The results in runs of one kind, target and edge, in order.
    var runs: [ResultRun] {
        var runs: [ResultRun] = []
        // The open run, grown in place: rebuilt for each result, a run of n reports copied n²/2 of them (a check
        // on every platform version prints hundreds per target).
        var reports: [TargetReport] = []
        var failures: [FailureReport] = []
        func close() {
            if !reports.isEmpty { runs.append(.reports(reports)) }
            if !failures.isEmpty { runs.append(.failures(failures)) }
            reports = []
            failures = []
        }
        var previous: TargetResult?
        for result in self {
            let sameChain = previous.map { $0.target == result.target && $0.edge == result.edge } ?? false
            previous = result
            switch result {
            case .judged(let report):
                if !sameChain || !failures.isEmpty { close() }
                reports.append(report)
            case .failed(let failure):
                if !sameChain || !reports.isEmpty { close() }
                failures.append(failure)
            }
        }
        close()
        return runs
    }
}
