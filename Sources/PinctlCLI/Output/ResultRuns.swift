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
        var previous: TargetResult?
        for result in self {
            defer { previous = result }
            if let previous, previous.target == result.target, previous.edge == result.edge, let last = runs.last {
                switch (last, result) {
                case (.reports(let reports), .judged(let report)):
                    runs[runs.count - 1] = .reports(reports + [report])
                    continue
                case (.failures(let failures), .failed(let failure)):
                    runs[runs.count - 1] = .failures(failures + [failure])
                    continue
                default:
                    break
                }
            }
            switch result {
            case .judged(let report): runs.append(.reports([report]))
            case .failed(let failure): runs.append(.failures([failure]))
            }
        }
        return runs
    }
}
