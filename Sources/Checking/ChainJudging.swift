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

    /// The results of one chain: every app's report, naming `edge`, then the errors of the apps whose evidence could
    /// not be had; or the input failure of a policy that cannot be built or a domain no app covers (which names no
    /// edge, as it holds for every edge alike).
    func results(
        target: String, domain: String?, presented: [X509Certificate], tls: TLSInfo?, edge: Edge?,
        gather: (RevocationMode) -> Result<RevocationEvidence, EvidenceFailure>
    ) -> [TargetResult] {
        let judged = judge.judge(target: target, domain: domain, presented: presented, tls: tls)
        let reports = judged.reports.map { report in
            var named = report
            named.edge = edge
            return named
        }
        guard reports.count == judged.count else { return judged }
        let checked = checkRevocation(reports, edge: edge, gather: gather)
        return checked.reports.map(TargetResult.judged) + checked.failures.map(TargetResult.failed)
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
