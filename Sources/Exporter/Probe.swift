import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// One probe's result: when, what, how long, and either every app's verdict on the chain or why none was judged.
struct ProbeResult: Sendable {
    enum Outcome: Sendable {
        /// The chain the server presented (leaf first) and each app's evaluation of it.
        case judged(presented: [X509Certificate], [PolicyFile.AppEvaluation])
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
        guard case .judged(_, let evaluations) = outcome else { return false }
        return evaluations.allSatisfy(\.evaluation.isTrusted)
    }

    /// `trusted`, `rejected` or `error`, for the exporter's own counters and the status page.
    var outcomeWord: String {
        guard case .judged = outcome else { return "error" }
        return succeeded ? "trusted" : "rejected"
    }
}

/// Checks a target as `pinctl check --config` does: one handshake that verifies nothing, then the presented chain
/// judged by every app covering the domain (or the one asked for), through `PolicyFile.evaluate`.
enum Probe {
    /// Blocks for up to `request.timeout` (resolution, connect and handshake) plus the judging: run it on a thread
    /// of its own, never on an event loop.
    static func run(_ request: ProbeRequest, policy: LoadedPolicy, settings: ExporterSettings) -> ProbeResult {
        let startedAt = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = judge(request, policy: policy, settings: settings)
        let elapsed = (clock.now - start).components
        return ProbeResult(target: request.target, domain: request.domain, startedAt: startedAt,
                           seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, outcome: outcome)
    }

    private static func judge(_ request: ProbeRequest, policy: LoadedPolicy, settings: ExporterSettings)
        -> ProbeResult.Outcome
    {
        let apps = policy.file.apps(covering: request.domain).filter { request.app == nil || $0.name == request.app }
        guard !apps.isEmpty else {
            let message = request.app.map { "app \($0) does not cover \(request.domain)" }
                ?? policy.file.uncoveredMessage(request.domain)
            return .failed(code: "uncovered", message: message)
        }
        let handshake: TLSHandshakeResult
        do {
            let options = TLSConnectOptions(serverName: request.domain, timeout: request.timeout, family: .any)
            handshake = try TLSClient.handshake(host: request.target.host, port: request.target.port, options: options)
        } catch {
            return .failed(code: error.kind.rawValue, message: error.message)
        }
        let context = EvaluationContext(platformAnchors: policy.store, time: settings.fixedTime ?? Date(),
                                        warnDays: settings.warnDays)
        let evaluations = PolicyFile.evaluate(apps, presented: handshake.presented, domain: request.domain,
                                              evaluator: PolicyEvaluator(context: context))
        return .judged(presented: handshake.presented, evaluations)
    }
}
