import Hummingbird
import Logging

/// `/probe`, `/metrics` and `/`: what each route answers, and the bookkeeping around a probe.
struct ExporterRoutes: Sendable {
    let settings: ExporterSettings
    let policies: PolicyHolder
    let reloads: ReloadProgress
    let slots: ProbeSlots
    let threads: ProbeThreads
    let metrics: ExporterMetrics
    let recent: RecentProbes
    let fleet: Fleet
    let logger: Logger

    func router() -> Router<BasicRequestContext> {
        // HEAD is answered as GET is, without the body (RFC 9110 §9.3.2): for /probe that runs the probe, as the
        // blackbox exporter does, so its headers are the ones a GET would get.
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLimits(maxURILength: settings.maxURILength) { metrics.refused($0) })
        router.get("/probe") { request, _ in await probe(request) }
        router.get("/metrics") { _, _ in Responses.metrics(metrics.render()) }
        router.get("/") { _, _ in
            Responses.html(StatusPage.render(policy: policies.policy, reload: reloads.running, fleet: fleet.all,
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
        fleet.record(result, coveringApps: policy.plan.judge.apps(covering: result.domain).map(\.name)
            .filter { probeRequest.app == nil || $0 == probeRequest.app }, listed: policy.lists(probeRequest.target))
        logger.debug("probe", metadata: [
            "target": "\(result.target)", "domain": "\(result.domain)", "outcome": "\(result.outcomeWord)",
            "seconds": "\(result.seconds)",
        ])
        return Responses.metrics(ProbeMetrics.render(result))
    }
}
