import FoundationEssentials
import Prometheus

/// The exporter's own metrics (`GET /metrics`): probes by outcome and their durations, requests refused, slots in
/// use, and the policy file's reloads.
final class ExporterMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let slots: ProbeSlots
    private let inFlight: Gauge
    private let peak: Gauge
    private let durations: DurationHistogram
    private let apps: Gauge
    private let lastReloadSucceeded: Gauge
    private let lastReloadTime: Gauge
    private let connectionRefusals: Counter
    /// pinctl_exporter_probes_total by outcome (`ProbeResult.outcomeWord`), each made once: looking a counter up in
    /// the registry takes its lock and hashes its name and labels, 1.3% of a probe's CPU (issue #22).
    private let probesByOutcome: [String: Counter]

    init(slots: ProbeSlots) {
        self.slots = slots
        registry.makeGauge(descriptor: Self.descriptor(
            "pinctl_exporter_max_probes", "Probes that may run at once (--max-probes); more are answered 503."
        )).set(Double(slots.capacity))
        inFlight = registry.makeGauge(descriptor: Self.descriptor(
            "pinctl_exporter_probes_in_flight", "Probes running now."))
        peak = registry.makeGauge(descriptor: Self.descriptor(
            "pinctl_exporter_probes_in_flight_peak", "The most probes that ran at once since the exporter started."))
        durations = registry.makeDurationHistogram(descriptor: Self.descriptor(
            "pinctl_exporter_probe_duration_seconds", "Seconds each probe took, whatever its outcome."
        ), buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10].map { .milliseconds(Int64($0 * 1000)) })
        apps = registry.makeGauge(descriptor: Self.descriptor(
            "pinctl_exporter_policy_apps", "Apps in the policy file in use."))
        lastReloadSucceeded = registry.makeGauge(descriptor: Self.descriptor(
            "pinctl_exporter_policy_last_reload_successful",
            "1 when the last read of the policy file succeeded; 0 when it failed or has run past --reload-timeout."))
        lastReloadTime = registry.makeGauge(descriptor: Self.descriptor(
            "pinctl_exporter_policy_last_reload_success_timestamp_seconds",
            "When the policy file in use was read, in Unix seconds."))
        connectionRefusals = registry.makeCounter(descriptor: Self.descriptor(
            "pinctl_exporter_connections_refused_total",
            "Connections closed as soon as accepted: their client address held --max-connections-per-address."))
        var probesByOutcome: [String: Counter] = [:]
        for outcome in ProbeResult.outcomeWords { probesByOutcome[outcome] = Self.probes(outcome, in: registry) }
        self.probesByOutcome = probesByOutcome
        for reason in Self.refusalReasons { _ = refusals(reason) }
        for result in ["success", "failure"] { _ = reloads(result) }
    }

    /// Why requests are refused, one counter each: 503 busy, 403 forbidden, 400 bad-request, 413/414 too-large; for
    /// `/report`, 400 bad-report (not a TrustKit report), 404/422 unjudged-report (no app of the policy file can
    /// judge it) and 429 too-many-reports.
    static let refusalReasons = ["busy", "forbidden", "bad-request", "too-large", "bad-report", "unjudged-report",
                                 "too-many-reports"]

    /// A field report judged: counted by app, host and whether pinctl's verdict agrees with the device's.
    func fieldReport(app: String, host: String, gate: ReportJudgement.Gate) {
        registry.makeCounter(descriptor: Self.descriptor(
            "pinctl_field_reports_total",
            "TrustKit pin-failure reports received at /report, each judged by the policy file: gate is predicted when "
                + "pinctl rejects the reported chain too, unexpected when it trusts the chain the device refused."
        ), labels: [("app", app), ("host", host), ("gate", gate.rawValue)]).increment()
    }

    func probeFinished(_ result: ProbeResult) {
        (probesByOutcome[result.outcomeWord] ?? Self.probes(result.outcomeWord, in: registry)).increment()
        durations.record(.nanoseconds(Int64(result.seconds * 1e9)))
    }

    func refused(_ reason: String) { refusals(reason).increment() }

    /// A connection closed as soon as it was accepted: its address held as many as it may.
    func connectionRefused() { connectionRefusals.increment() }

    func policyLoaded(apps count: Int, at time: Date) {
        apps.set(Double(count))
        lastReloadSucceeded.set(1.0)
        lastReloadTime.set(time.timeIntervalSince1970)
        reloads("success").increment()
    }

    func policyReloadFailed() {
        lastReloadSucceeded.set(0.0)
        reloads("failure").increment()
    }

    /// A reload still running after --reload-timeout: not a success yet, maybe never; counted once it ends.
    func policyReloadStuck() {
        lastReloadSucceeded.set(0.0)
    }

    /// The text format of every metric, with the slot gauges read now.
    func render() -> [UInt8] {
        let usage = slots.usage
        inFlight.set(Double(usage.inFlight))
        peak.set(Double(usage.peak))
        return registry.emitToBuffer()
    }

    private static func probes(_ outcome: String, in registry: PrometheusCollectorRegistry) -> Counter {
        registry.makeCounter(descriptor: descriptor(
            "pinctl_exporter_probes_total",
            "Probes run, by outcome: trusted, rejected (by some app), error (no verdict)."
        ), labels: [("outcome", outcome)])
    }

    private func refusals(_ reason: String) -> Counter {
        registry.makeCounter(descriptor: Self.descriptor(
            "pinctl_exporter_requests_refused_total", "Requests answered without a probe, by reason."
        ), labels: [("reason", reason)])
    }

    private func reloads(_ result: String) -> Counter {
        registry.makeCounter(descriptor: Self.descriptor(
            "pinctl_exporter_policy_reloads_total", "Reads of the policy file at start and on SIGHUP, by result."
        ), labels: [("result", result)])
    }

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
