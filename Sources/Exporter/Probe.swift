import Checking
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// One probe's result: when, what, how long, and either every app's verdict on the chain or why none was judged.
struct ProbeResult: Sendable {
    enum Outcome: Sendable {
        /// The chain the server presented (leaf first; empty when no app's report survived), each app's report on
        /// it, and the apps that could not get the revocation evidence they asked for (DESIGN §3: their error).
        case judged(presented: [X509Certificate], [TargetReport], failures: [FailureReport])
        /// No verdict: a connection failure (DESIGN §2's codes: `timeout`, `not-tls`, …) or `uncovered`.
        case failed(code: String, message: String)
    }

    let target: Target
    let domain: String
    let startedAt: Date
    let seconds: Double
    let outcome: Outcome

    /// Blackbox's `probe_success`: a chain was judged and every app trusts it.
    var succeeded: Bool {
        guard case .judged(_, let reports, let failures) = outcome else { return false }
        return failures.isEmpty && reports.allSatisfy(\.evaluation.isTrusted)
    }

    /// Every `outcomeWord`: the exporter counts each from the start.
    static let outcomeWords = ["trusted", "rejected", "error"]

    /// DESIGN §11's `breaksOn`: when the first rotation that breaks the app is due, from the forecast `pinctl lint`
    /// makes on the same chain; nil when no rotation breaks it.
    static func breaksOn(_ report: TargetReport, domain: String) -> Date? {
        RotationForecast(pins: report.policy.appliedPins(for: domain), builtChain: report.evaluation.builtChain)
            .breaksOn
    }

    /// `trusted`, `rejected` or `error`, for the exporter's own counters and the status page.
    var outcomeWord: String {
        guard case .judged = outcome else { return "error" }
        return succeeded ? "trusted" : "rejected"
    }
}

/// Checks a target through the checking core, as `pinctl check --config` does: one handshake that verifies nothing,
/// the presented chain judged by every app covering the domain (or the one asked for), on every platform version the
/// file names (the versions with the same verdict grouped), then the revocation evidence each app asks for.
enum Probe {
    /// Blocks for up to `request.timeout` (resolution, connect, handshake and revocation fetches) plus the judging:
    /// run it on a thread of its own, never on an event loop.
    static func run(_ request: ProbeRequest, policy: LoadedPolicy, settings: ExporterSettings) -> ProbeResult {
        let startedAt = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = check(request, policy: policy, settings: settings)
        let elapsed = (clock.now - start).components
        return ProbeResult(target: request.target, domain: request.domain, startedAt: startedAt,
                           seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, outcome: outcome)
    }

    private static func check(_ request: ProbeRequest, policy: LoadedPolicy, settings: ExporterSettings)
        -> ProbeResult.Outcome
    {
        // As `check --config`, by the plan built at load; a probe only sets time and app.
        let plan = policy.plan.at(settings.fixedTime ?? Date(), onlyApp: request.app)
        // Nothing is connected to for a domain no app judges.
        guard !plan.apps(covering: request.domain).isEmpty else {
            let message = request.app.map { "app \($0) does not cover \(request.domain)" }
                ?? policy.file.uncoveredMessage(request.domain)
            return .failed(code: "uncovered", message: message)
        }
        // No proxy from the environment: the exporter connects as it always has, straight to the target.
        var connection = ConnectionSettings(servername: request.domain, timeout: request.timeout, family: .any,
                                            environment: [:])
        connection.certificateMemo = policy.presentedCertificates
        let live = LiveSettings(connection: connection, revocationDestination: RevocationDestination(
            allowsPrivateAddresses: settings.revocationAllowsPrivateAddresses))
        var reports: [TargetReport] = []
        var failures: [FailureReport] = []
        for result in plan.check(request.target, live) {
            switch result {
            case .judged(let report):
                reports.append(report)
            case .failed(let failure) where failure.app == nil:
                // No app's failure: the policy cannot be built for the domain (every app covering it is named on its
                // own failures, and the file's apps were asked above), so no app has a verdict.
                return .failed(code: failure.code, message: failure.message)
            case .failed(let failure):
                failures.append(failure)
            }
        }
        // No app judged the chain (no connection, or every app lacks its evidence): the probe's error, as `check`
        // gives every app that error.
        guard !reports.isEmpty else {
            return .failed(code: failures.first?.code ?? "error", message: failures.first?.message ?? "no result")
        }
        let presented = reports.first?.evaluation.presented.certificates ?? []
        return .judged(presented: presented, reports, failures: failures)
    }
}
