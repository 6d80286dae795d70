/// A pinning library's policy for one app: the one protocol every library's evaluator conforms to.
///
/// A policy is a value, built from command-line flags or from a configuration file; it judges a chain through the
/// shared `ChainOracle` and speaks in verdicts and warnings, never in flags or file formats.
public protocol TrustPolicy: Sendable {
    var library: Library { get }

    /// Whether the policy has a rule of its own for `host` (a pattern, a pinned domain, an evaluator): what makes an
    /// app of a policy file cover a target it does not list.
    func hasRule(for host: String) -> Bool

    /// The hosts the policy's own rules name, as a person reads them (`api.example.com`, `example.com and
    /// subdomains`, an OkHttp pattern as written), in the order written: what a status page lists beside `hosts`.
    var ruleHosts: [String] { get }

    /// Judges the presented chain for `domain` (nil: no name to check).
    func evaluate(_ oracle: ChainOracle, domain: String?) -> PolicyOutcome

    /// The JSON `policy` object: the library's own fields, each with its value.
    var summary: [(String, SummaryValue)] { get }

    /// Every pin the policy holds, where it is written.
    var pins: [Pin] { get }

    /// The pins that apply to `host` and how: what `lint` attributes to today's chain and forecasts.
    func appliedPins(for host: String?) -> AppliedPins
}

/// A field of a policy summary.
public enum SummaryValue: Sendable {
    case text(String)
    case flag(Bool)
    case count(Int)
}

/// What a policy's evaluation yields besides the verdict.
public struct PolicyOutcome: Sendable {
    public var verdict: Verdict
    /// The validation whose chain the result shows: the one that decided, or the last one run.
    public var validation: ChainValidation?
    /// Warnings: never change the verdict.
    public var warnings: [String]
    /// A revocation check the library itself asks for once the chain is trusted.
    public var revocation: RevocationRequest?

    public init(_ verdict: Verdict, validation: ChainValidation?, warnings: [String] = []) {
        self.verdict = verdict
        self.validation = validation
        self.warnings = warnings
    }

    public static func rejected(_ reason: RejectionReason, _ validation: ChainValidation?, warnings: [String] = [])
        -> PolicyOutcome
    {
        PolicyOutcome(.rejected(Rejection(reason)), validation: validation, warnings: warnings)
    }

    public static func trusted(_ basis: TrustBasis, _ validation: ChainValidation?, warnings: [String] = [])
        -> PolicyOutcome
    {
        PolicyOutcome(.trusted(basis), validation: validation, warnings: warnings)
    }
}
