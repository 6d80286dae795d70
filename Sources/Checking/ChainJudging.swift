import OpenSSLWrapper
import PolicyEngine

/// Why evidence an app asked for could not be had: on a live check a responder that did not answer (its network
/// kind: `timeout`, `refused`, … exit 3); offline, a document only the network or the server could give (`input`,
/// exit 2). It is the error of the apps that asked for that evidence alone (DESIGN §3).
public struct EvidenceFailure: Error, Sendable {
    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// Judging one presented chain, the step a live check (`TargetChecker`) and an offline one (`OfflineChecker`) share:
/// every app's report, then the revocation evidence each trusted report asks for, gathered by the caller's `gather`
/// (fetched live, or read from files offline) and applied the same way. Only how evidence is gathered differs.
struct ChainJudging {
    let judge: Judge
    /// The command line's revocation check, which every app then asks for; `.none` leaves it to each library.
    let revocation: RevocationMode

    /// The outcomes of one chain: its judgement, and the errors of the apps whose evidence could not be had (after
    /// the other apps' reports; alone when every app's evidence failed).
    func outcomes(
        target: String, domain: String?, presented: [X509Certificate], tls: TLSInfo?, edge: Edge?,
        gather: (RevocationMode) -> Result<RevocationEvidence, EvidenceFailure>
    ) -> [CheckOutcome] {
        let judgement = judge.judge(target: target, domain: domain, presented: presented, tls: tls)
        guard case .reports(let reports) = judgement else { return [.judged(target: target, judgement, edge: edge)] }
        let checked = checkRevocation(reports, edge: edge, gather: gather)
        let judged = Judge.Judgement.reports(checked.reports)
        var outcomes: [CheckOutcome] = []
        if !checked.reports.isEmpty || checked.failures.isEmpty {
            outcomes.append(.judged(target: target, edge.map { judged.on($0) } ?? judged, edge: edge))
        }
        if !checked.failures.isEmpty { outcomes.append(.failed(checked.failures, edge: edge)) }
        return outcomes
    }

    /// Each trusted report with the revocation check it needs: the command line's, else the one its library asked
    /// for (Alamofire's revocation evaluator). Nothing is gathered for a chain no policy trusts, and each kind of
    /// evidence once per chain. Evidence that cannot be had is the error of the apps that asked for it (DESIGN §3);
    /// the others keep their reports.
    private func checkRevocation(
        _ reports: [TargetReport], edge: Edge?, gather: (RevocationMode) -> Result<RevocationEvidence, EvidenceFailure>
    ) -> (reports: [TargetReport], failures: [FailureReport]) {
        var gathered: [RevocationMode: Result<RevocationEvidence, EvidenceFailure>] = [:]
        var checked: [TargetReport] = []
        var failures: [FailureReport] = []
        for report in reports {
            let request = revocation != .none
                ? RevocationRequest(mode: revocation, requiresPositiveResponse: false)
                : report.evaluation.revocationRequest
            guard let request, request.mode != .none, report.evaluation.isTrusted else {
                checked.append(report)
                continue
            }
            let found = gathered[request.mode] ?? gather(request.mode)
            gathered[request.mode] = found
            switch found {
            case .success(var evidence):
                evidence.requiresPositiveResponse = request.requiresPositiveResponse
                checked.append(report.applying(evidence))
            case .failure(let error):
                // Named, as it is this app's error and not the connection's: the others on it have their reports.
                let message = (report.app.map { "app \($0.name): " } ?? "") + error.message
                var failure = FailureReport(
                    target: report.target, domain: report.domain, time: judge.time, app: report.app,
                    policy: report.policy, code: error.code,
                    message: edge.map { "edge \($0.label): " + message } ?? message)
                failure.edge = edge
                failures.append(failure)
            }
        }
        return (checked, failures)
    }
}
