import FoundationEssentials
import OpenSSLWrapper

/// One finding of `lint`: what is wrong or worth knowing, how bad, and what to do.
public struct LintFinding: Sendable {
    public enum Severity: String, Sendable { case error, warning, info }

    public let code: String
    public let severity: Severity
    /// One sentence: what it is, and what to do.
    public let message: String
    public let pin: Pin?
    /// The certificate concerned, if any.
    public let certificate: X509Certificate?
    public let date: Date?
}

/// DESIGN §10's lint of one app for one host: attribution, forecast, `breaksOn`, findings.
public struct LintResult: Sendable {
    public let pins: AppliedPins
    public let forecast: RotationForecast
    public let findings: [LintFinding]

    /// Lints `policy` for `host` against the evaluation of today's chain.
    public init(policy: any TrustPolicy, host: String?, evaluation: Evaluation, horizonDays: Int) {
        let pins = policy.appliedPins(for: host)
        let forecast = RotationForecast(pins: pins, builtChain: evaluation.builtChain)
        self.pins = pins
        self.forecast = forecast
        var findings: [LintFinding] = []
        let time = evaluation.time
        let horizon = time.addingTimeInterval(TimeInterval(horizonDays) * 86_400)

        if let rejection = evaluation.rejection {
            findings.append(LintFinding(code: "rejected-today", severity: .error,
                                        message: "today's chain is already rejected (\(rejection.reason.code)): fix that first",
                                        pin: nil, certificate: rejection.reason.certificate, date: nil))
        }
        let expiry = pins.expiration.map { " — but the pins expire on \(Timestamp.day($0)) and fail open" } ?? ""
        for (event, outcome) in forecast.outcomes where outcome == .breaks {
            let severity: LintFinding.Severity = event == .renewLeaf || event == .rekeyLeaf ? .error
                : event == .newIntermediate ? .warning : .info
            let expiresFirst = pins.expiration.map { $0 < (forecast.breaksOn ?? .distantFuture) } ?? false
            findings.append(LintFinding(
                code: "rotation-breaks", severity: severity,
                message: "\(RotationForecast.describe(event)) breaks this app\(expiresFirst ? expiry : ""): pin a key "
                    + "that \(event == .newCA ? "the next CA" : "the next chain") keeps, or ship a backup pin",
                pin: nil, certificate: nil, date: event == forecast.breakingEvent ? forecast.breaksOn : nil))
        }
        let used = forecast.attribution.filter { $0.position != nil }
        if !pins.entries.isEmpty, used.count == pins.entries.count {
            findings.append(LintFinding(
                code: "no-backup-pin", severity: .error,
                message: "every pin matches today's chain (RFC 7469 §4.3): add a pin for a key kept in reserve "
                    + "(pinctl backup-key makes one)", pin: nil, certificate: nil, date: nil))
        }
        let distinct = Set(pins.entries.map { $0.pin.description }).count
        if !pins.entries.isEmpty, distinct < 2 {
            findings.append(LintFinding(
                code: "too-few-pins", severity: .warning,
                message: "only \(distinct) pin: TrustKit and Android Lint ask for at least two (one a backup)",
                pin: pins.entries.first?.pin, certificate: nil, date: nil))
        }
        for attribution in forecast.attribution where attribution.position == nil {
            findings.append(LintFinding(
                code: "pin-unused", severity: .info,
                message: "this pin matches no certificate of today's chain: a backup, or a mistake (pinctl diagnose "
                    + "tells which)", pin: attribution.pin.pin, certificate: nil, date: nil))
        }
        for entry in pins.entries {
            guard case .certificate(let pinned) = entry.pin, pinned.certificate.notAfter <= horizon else { continue }
            findings.append(LintFinding(
                code: "pinned-certificate-expires", severity: .warning,
                message: "the pinned certificate \(pinned.certificate.subject) expires on "
                    + "\(Timestamp.day(pinned.certificate.notAfter)): ship its successor's pin before then",
                pin: entry.pin, certificate: pinned.certificate, date: pinned.certificate.notAfter))
        }
        if let expiration = pins.expiration, expiration <= horizon {
            findings.append(LintFinding(
                code: "pin-set-expires", severity: .warning,
                message: "the pins expire on \(Timestamp.day(expiration)): from then on \(policy.library.displayName) "
                    + "does not check them (it fails open); ship a new expiration date before then",
                pin: nil, certificate: nil, date: expiration))
        }
        self.findings = findings
    }

    /// Any `error` finding: lint exits 1.
    public var hasError: Bool { findings.contains { $0.severity == .error } }
}
