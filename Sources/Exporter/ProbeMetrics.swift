import Checking
import FoundationEssentials
import PolicyEngine
import Prometheus

/// The answer to `/probe`: DESIGN §11's metrics in Prometheus's text format, with the blackbox exporter's names
/// where they mean the same, so dashboards made for it work. Each probe gets a registry of its own.
enum ProbeMetrics {
    static func render(_ result: ProbeResult) -> [UInt8] {
        let registry = PrometheusCollectorRegistry()
        registry.makeGauge(descriptor: descriptor(
            "probe_success", "1 when a chain was judged and every app covering the target trusts it, else 0."
        )).set(result.succeeded ? 1.0 : 0.0)
        registry.makeGauge(descriptor: descriptor(
            "probe_duration_seconds", "Seconds the probe took: resolution, connect, handshake and every judgement."
        )).set(result.seconds)

        switch result.outcome {
        case .failed(let code, _):
            registry.makeGauge(descriptor: descriptor(
                "pinctl_probe_error",
                "1: no chain was judged, for the reason in code (timeout, not-tls, uncovered, …)."
            ), labels: [("code", code)]).set(1.0)
        case .judged(let presented, let reports, let failures):
            breaksOn(reports, domain: result.domain, registry: registry)
            if let earliest = presented.map(\.notAfter).min() {
                registry.makeGauge(descriptor: descriptor(
                    "probe_ssl_earliest_cert_expiry", "The earliest notAfter of the presented chain, in Unix seconds."
                )).set(earliest.timeIntervalSince1970)
            }
            for (position, certificate) in presented.enumerated() {
                registry.makeGauge(descriptor: descriptor(
                    "pinctl_certificate_not_after_seconds",
                    "notAfter of each presented certificate (position 0 is the leaf), in Unix seconds."
                ), labels: [("position", String(position)), ("subject", certificate.subject)])
                .set(certificate.notAfter.timeIntervalSince1970)
            }
            let verdicts = reports.map { (labels: appLabels($0.app, $0.platform), trusted: $0.evaluation.isTrusted,
                                          reason: reason($0.evaluation)) }
                // An app that could not get the evidence it asked for: no verdict, its error's code as the reason.
                + failures.map { (labels: appLabels($0.app, nil), trusted: false, reason: $0.code) }
            for verdict in verdicts {
                registry.makeGauge(descriptor: descriptor(
                    "pinctl_probe_success", "1 when the app trusts the chain (on the versions of the platform label, "
                        + "when the policy file names platforms), else 0."
                ), labels: verdict.labels).set(verdict.trusted ? 1.0 : 0.0)
                registry.makeGauge(descriptor: descriptor(
                    "pinctl_verdict",
                    "The app's verdict (1 trusted, 0 rejected or error); reason: the rejection's code, the trust's "
                        + "basis, or the code of the error that left the app without a verdict (refused, timeout, …)."
                ), labels: verdict.labels + [("reason", verdict.reason)]).set(verdict.trusted ? 1.0 : 0.0)
            }
        }
        return registry.emitToBuffer()
    }

    /// DESIGN §11's `pinctl_policy_breaks_on_seconds{app}`: when the first rotation that breaks the app is due, from
    /// the forecast `pinctl lint` makes on the same chain; no sample for an app that no rotation breaks.
    private static func breaksOn(_ reports: [TargetReport], domain: String, registry: PrometheusCollectorRegistry) {
        for report in reports {
            guard let date = ProbeResult.breaksOn(report, domain: domain) else { continue }
            registry.makeGauge(descriptor: descriptor(
                "pinctl_policy_breaks_on_seconds",
                "When the first rotation that breaks the app is due (pinctl lint's breaksOn), in Unix seconds."
            ), labels: appLabels(report.app, report.platform)).set(date.timeIntervalSince1970)
        }
    }

    /// The labels of a per-app series: `app`, and `platform` (the range of versions the verdict holds for, as `check`
    /// prints it: `android@25-36`) only when the policy file names platforms. Without platforms there is no label
    /// rather than an empty one: Prometheus takes the two for the same series, and leaving it out keeps the answer
    /// byte for byte what it was before platforms, so dashboards and recording rules see no change.
    private static func appLabels(_ app: AppIdentity?, _ platform: PlatformRange?) -> [(String, String)] {
        [("app", app?.name ?? "")] + (platform.map { [("platform", $0.name)] } ?? [])
    }

    /// The rejection's reason code (`public-key-not-pinned`), or the trust's basis (`pin-matched`, `failed-open`).
    static func reason(_ evaluation: Evaluation) -> String {
        switch evaluation.verdict {
        case .trusted(let basis): basis.code
        case .rejected(let rejection): rejection.reason.code
        }
    }

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
