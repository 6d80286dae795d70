import FoundationEssentials
import Hummingbird
import Logging
import PolicyEngine

/// `/probe`, `/report`, `/metrics` and `/`: what each route answers, and the bookkeeping around a probe.
struct ExporterRoutes: Sendable {
    let settings: ExporterSettings
    let policies: PolicyHolder
    let reloads: ReloadProgress
    let slots: ProbeSlots
    let threads: ProbeThreads
    let metrics: ExporterMetrics
    let recent: RecentProbes
    let fleet: Fleet
    let reports: FieldReports
    let logger: Logger

    func router() -> Router<BasicRequestContext> {
        // HEAD is answered as GET is, without the body (RFC 9110 §9.3.2): for /probe that runs the probe, as the
        // blackbox exporter does, so its headers are the ones a GET would get.
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLimits(maxURILength: settings.maxURILength) { metrics.refused($0) })
        router.get("/probe") { request, _ in await probe(request) }
        router.post("/report") { request, _ in await report(request, appName: nil) }
        router.post("/report/:app") { request, context in
            await report(request, appName: context.parameters.get("app"))
        }
        router.get("/metrics") { _, _ in Responses.metrics(metrics.render()) }
        router.get("/") { _, _ in
            Responses.html(StatusPage.render(policy: policies.policy, reload: reloads.running, fleet: fleet.all,
                                             reports: reports.newestFirst,
                                             recent: recent.newestFirst, settings: settings))
        }
        return router
    }

    /// Checks the target on a probe thread, if a slot is free; a refusal carries its reason.
    func probe(_ request: Request) async -> Response {
        let policy = policies.policy
        let probeRequest: ProbeRequest
        do {
            probeRequest = try ProbeRequest(
                parameters: request.uri.queryParameters.map { (String($0.key), String($0.value)) },
                scrapeTimeout: request.headers[ProbeRequest.scrapeTimeoutHeader], policy: policy, settings: settings)
        } catch {
            metrics.refused(error.status == .forbidden ? "forbidden" : "bad-request")
            logger.info("probe refused", metadata: ["status": "\(error.status.code)", "reason": "\(error.message)"])
            return Responses.text(error.status, error.message)
        }
        guard slots.acquire() else {
            metrics.refused("busy")
            logger.debug("probe refused: busy", metadata: ["target": "\(probeRequest.target)"])
            return Responses.text(.serviceUnavailable, "\(slots.capacity) probes are running, as many as --max-probes "
                + "allows: try again later, or run more exporters")
        }
        defer { slots.release() }
        let result = await threads.run { [settings] in Probe.run(probeRequest, policy: policy, settings: settings) }
        metrics.probeFinished(result)
        recent.add(result)
        // The apps a failed probe leaves without a verdict; a judged one names its own (no lookup per probe).
        var unjudged: [String] = []
        if case .failed = result.outcome {
            unjudged = policy.plan.apps(covering: result.domain).map(\.name)
                .filter { probeRequest.app == nil || $0 == probeRequest.app }
        }
        fleet.record(result, coveringApps: unjudged, listed: policy.lists(probeRequest.target))
        logger.debug("probe", metadata: [
            "target": "\(result.target)", "domain": "\(result.domain)", "outcome": "\(result.outcomeWord)",
            "seconds": "\(result.seconds)",
        ])
        return Responses.metrics(ProbeMetrics.render(result))
    }

    /// A TrustKit pin-failure report (`POST /report`, or `/report/APP` naming the app that sent it): judged by the
    /// policy file on a probe thread and counted; a body that is no report, or one no app can judge, is refused with
    /// the reason and counted nowhere else.
    func report(_ request: Request, appName: String?) async -> Response {
        guard reports.admit() else {
            metrics.refused("too-many-reports")
            var response = Responses.text(.tooManyRequests, "more than \(Int(FieldReports.perSecond)) reports a "
                + "second arrive: this one is not judged")
            response.headers[.retryAfter] = "1"
            return response
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: FieldReports.maximumBytes)
        } catch {
            metrics.refused("too-large")
            return Responses.text(.contentTooLarge, "a report is at most \(FieldReports.maximumBytes) bytes")
        }
        let policy = policies.policy
        // When it arrived, by the clock (as a probe's start): the report is judged at its own time, not this one.
        let receivedAt = Date()
        let judged = await threads.run { () -> Result<ReportJudgement, RequestRefusal> in
            do throws(PinFailureReport.Malformed) {
                let report = try PinFailureReport.parse(Array(buffer: body))
                return Result { () throws(RequestRefusal) in
                    try ReportJudgement.judge(report, appName: appName, policy: policy, receivedAt: receivedAt)
                }
            } catch {
                return .failure(RequestRefusal(status: .badRequest, message: "not a TrustKit pin-failure report: "
                    + error.message))
            }
        }
        switch judged {
        case .failure(let refusal):
            metrics.refused(refusal.status == .badRequest ? "bad-report" : "unjudged-report")
            logger.info("report refused", metadata: [
                "status": "\(refusal.status.code)", "reason": "\(refusal.message)",
            ])
            return Responses.text(refusal.status, refusal.message)
        case .success(let judgement):
            let host = reports.record(judgement)
            metrics.fieldReport(app: judgement.app, host: host, gate: judgement.gate)
            logger.info("report", metadata: [
                "app": "\(judgement.app)", "host": "\(judgement.report.hostname)", "gate": "\(judgement.gate)",
                "reasons": "\(judgement.reasons.joined(separator: ","))",
            ])
            return Responses.text(.ok, judgement.summary)
        }
    }
}
