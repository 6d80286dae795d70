/// One target's (or one edge's) result: the reports of the policies that judged its chain, or why none could.
public enum CheckOutcome: Sendable {
    case judged(target: String, Judge.Judgement, edge: Edge? = nil)
    /// No evaluation: one failure per app the target was for (or one), `input` when the target cannot be checked
    /// as given (a proxy setting that cannot be used); or the apps of an edge whose evidence could not be had.
    case failed([FailureReport], edge: Edge? = nil)
}
