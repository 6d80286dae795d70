/// One result of a plan: a (target, edge, app, platform range)'s report on the chain it was judged on, or why none
/// could be had (a connection that failed, a policy that cannot be built, a domain no app covers, evidence an app
/// asked for). `CheckPlan.check` and `CheckPlan.judge` give a flat list of them, never an empty one: every output
/// format is a view of that list, and every command folds its exit status from it.
public enum TargetResult: Sendable {
    case judged(TargetReport)
    case failed(FailureReport)

    /// The target the result is for; nil for a failure of the command line itself.
    public var target: String? {
        switch self {
        case .judged(let report): report.target
        case .failed(let failure): failure.target
        }
    }

    /// The edge the result is for, when `check` split the target into edges.
    public var edge: Edge? {
        switch self {
        case .judged(let report): report.edge
        case .failed(let failure): failure.edge
        }
    }

    /// The report, when the chain was judged.
    public var report: TargetReport? {
        guard case .judged(let report) = self else { return nil }
        return report
    }
}

extension [TargetResult] {
    /// The reports among the results, in order.
    public var reports: [TargetReport] { compactMap(\.report) }
}
