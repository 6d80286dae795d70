import Checking
import FoundationEssentials
import Glibc
import PolicyEngine
import XMLTree

/// One app's lint for one host, with the evaluation it was made from.
struct LintReport {
    let report: TargetReport
    let result: LintResult

    var evaluation: Evaluation { report.evaluation }

    /// "leaf", "intermediate" or "root" for a position of the built chain.
    func role(_ position: Int) -> String {
        if position == 0 { return "leaf" }
        return RotationForecast.isRoot(position, of: evaluation.builtChain) ? "root" : "intermediate"
    }

    /// `#1 intermediate CN=… (presented)`: what a pin matches today.
    func matched(_ attribution: PinAttribution) -> String {
        guard let position = attribution.position, let certificate = attribution.certificate else { return "nothing" }
        let index = evaluation.index(of: certificate)
        let supplied = index.map { evaluation.wasPresented($0) ? "presented" : "from the trust store" } ?? "built"
        return "#\(index ?? position) \(role(position)) \(certificate.subject) (\(supplied))"
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let app = report.app {
            members += [("app", .string(app.name)), ("versions", .array(app.versions.map { .string($0) }))]
        }
        if let platform = report.platform {
            members.append(("platform", .object([("name", .string(platform.platform)),
                                                 ("versions", .string(platform.versions))])))
        }
        members += [
            ("library", .string(report.policy.library.rawValue)),
            ("host", JSONValue(report.domain)),
            ("target", .string(report.target)),
            ("evaluatedAt", .string(Timestamp.iso8601(evaluation.time))),
        ]
        // The verdict and its reason, as `check` writes them: lint judges with the same checking core.
        members.append(("verdict", .string(report.verdictWord)))
        if let rejection = evaluation.rejection {
            members.append(("reason", .object([("code", .string(rejection.reason.code)),
                                               ("message", .string(evaluation.rejectionMessage ?? ""))])))
        }
        if let basis = evaluation.trustBasis { members.append(("trust", .object([("basis", .string(basis.code))]))) }
        members += [
            ("attribution", .array(result.forecast.attribution.map { attribution in
                .object([
                    ("pin", .string(attribution.pin.pin.description)),
                    ("source", .string(attribution.pin.pin.source.description)),
                    ("comparison", .string(attribution.pin.comparison.rawValue)),
                    ("certificate", attribution.certificate.flatMap(evaluation.index(of:)).map { .number($0) } ?? .null),
                ])
            })),
            ("rotation", .object(result.forecast.outcomes.map { ($0.event.rawValue, .string($0.outcome.rawValue)) })),
            ("breaksOn", result.forecast.breaksOn.map { .string(Timestamp.iso8601($0)) } ?? .null),
            ("findings", .array(result.findings.map { finding in
                .object([
                    ("code", .string(finding.code)),
                    ("severity", .string(finding.severity.rawValue)),
                    ("message", .string(finding.message)),
                    ("pin", finding.pin.map { .string($0.description) } ?? .null),
                    ("source", finding.pin.map { .string($0.source.description) } ?? .null),
                    ("certificate", finding.certificate.flatMap(evaluation.index(of:)).map { .number($0) } ?? .null),
                    ("date", finding.date.map { .string(Timestamp.iso8601($0)) } ?? .null),
                ])
            })),
        ]
        if let why = result.pins.notPinnedBecause { members.append(("notPinned", .string(why))) }
        return .object(members)
    }

    /// A compact table: the pins and what they match, the forecast, the date, the findings.
    var text: [String] {
        let who = report.appTitle ?? report.policy.library.rawValue
        let on = report.platform.map { " on \($0.label)" } ?? ""
        var lines = [Terminal.paint(who + on, .bold) + " — " + Terminal.safe(report.domain ?? report.target)]
        if let why = result.pins.notPinnedBecause { lines.append("  not pinned: " + Terminal.safe(why)) }
        for attribution in result.forecast.attribution {
            lines.append("  " + Terminal.safe("\(attribution.pin.pin.description)  (\(attribution.pin.pin.source))"))
            lines.append("      matches " + Terminal.safe(matched(attribution)))
        }
        lines.append("  forecast   " + result.forecast.outcomes.map { "\($0.event.rawValue) \($0.outcome.rawValue)" }
            .joined(separator: " · "))
        lines.append("  breaks on  " + (result.forecast.breaksOn.map {
            "\(Timestamp.day($0)) (\(result.forecast.breakingEvent?.rawValue ?? ""))"
        } ?? "-"))
        for finding in result.findings {
            let colour: Terminal.Colour = finding.severity == .error ? .red : finding.severity == .warning ? .yellow : .dim
            let label = Terminal.paint(finding.severity.rawValue + String(repeating: " ", count: max(0, 7 - finding.severity.rawValue.count)), colour)
            lines.append("  \(label)  \(finding.code): " + Terminal.safe(finding.message))
        }
        return lines
    }
}

/// Prints lint results: text, one JSON object per (app, host), or one JUnit or SARIF document at the end.
final class LintReporter {
    let output: OutputOptions
    private var collected: [LintReport] = []

    init(output: OutputOptions) { self.output = output }

    func emit(_ report: LintReport) {
        switch output.format {
        case .text:
            if !output.quiet || report.result.hasError { print(report.text.joined(separator: "\n")) }
        case .json:
            print(report.json.serialized)
        case .junit, .sarif:
            collected.append(report)
        }
    }

    /// An app whose chain could not be judged (or whose revocation evidence could not be had): in JSON an object
    /// with `verdict: error` and its code, as `check` writes it; the text formats have its message on stderr.
    func emit(_ failure: FailureReport) {
        if output.format == .json { print(failure.json.serialized) }
    }

    func finish() {
        switch output.format {
        case .junit:
            Terminal.write(Array(junit), to: STDOUT_FILENO)
        case .sarif:
            print(sarif.serialized)
        default:
            break
        }
    }

    /// A testcase per (app, host), failing on its first error finding.
    private var junit: [UInt8] {
        var suites: [String] = []
        for report in collected {
            let name = report.report.app?.name ?? report.report.policy.library.rawValue
            if !suites.contains(name) { suites.append(name) }
        }
        let children = suites.map { suite -> XMLOutputElement.Child in
            let members = collected.filter { ($0.report.app?.name ?? $0.report.policy.library.rawValue) == suite }
            return .element(XMLOutputElement("testsuite", attributes: [
                ("tests", "\(members.count)"), ("failures", "\(members.filter(\.result.hasError).count)"),
                ("errors", "0"), ("name", suite),
            ], children: members.map { member in
                let error = member.result.findings.first { $0.severity == .error }
                return .element(XMLOutputElement("testcase", attributes: [
                    ("classname", suite), ("name", member.report.domain ?? member.report.target),
                ], children: error.map { finding in
                    [.element(XMLOutputElement("failure", attributes: [("message", finding.message), ("type", finding.code)],
                                               children: [.text(member.text.joined(separator: "\n"))]))]
                } ?? []))
            }))
        }
        return JUnitReport.serialize(XMLOutputElement("testsuites", attributes: [("name", "pinctl lint")],
                                                      children: children))
    }

    /// A result per finding, at the pin's place (or the app's line).
    private var sarif: JSONValue {
        var rules: [String] = []
        var results: [JSONValue] = []
        for report in collected {
            for finding in report.result.findings {
                if !rules.contains(finding.code) { rules.append(finding.code) }
                var location: (String, Int?)?
                if let place = finding.pin?.source.place {
                    switch place {
                    case .file(let path, let line, _), .configuration(let path, let line, _): location = (path, line)
                    case .argument: location = nil
                    }
                }
                if location == nil, let app = report.report.app { location = (app.file, app.line) }
                var members: [(String, JSONValue)] = [
                    ("ruleId", .string(finding.code)),
                    ("level", .string(finding.severity == .info ? "note" : finding.severity.rawValue)),
                    ("message", .object([("text", .string(
                        "\(report.report.app?.name ?? report.report.policy.library.rawValue) for "
                            + "\(report.report.domain ?? report.report.target): \(finding.message)"))])),
                ]
                if let (file, line) = location {
                    var physical: [(String, JSONValue)] = [("artifactLocation", .object([("uri", .string(file))]))]
                    if let line { physical.append(("region", .object([("startLine", .number(line))]))) }
                    members.append(("locations", .array([.object([("physicalLocation", .object(physical))])])))
                }
                results.append(.object(members))
            }
        }
        let driver: [(String, JSONValue)] = [
            ("name", .string("pinctl lint")), ("version", .string(PinctlVersion.current)),
            ("rules", .array(rules.map { .object([("id", .string($0))]) })),
        ]
        return .object([
            ("version", .string("2.1.0")),
            ("runs", .array([.object([("tool", .object([("driver", .object(driver))])), ("results", .array(results))])])),
        ])
    }
}
