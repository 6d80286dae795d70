import Checking
import FoundationEssentials
import PolicyEngine
import TextSyntax

/// A field report judged by the policy file: the app and version that sent it, on the device's platform versions,
/// at the report's time, and whether pinctl's verdict agrees with the device's failure.
struct ReportJudgement: Sendable {
    /// `predicted`: pinctl rejects the chain too, so a gate run on it would have said the app breaks.
    /// `unexpected`: pinctl trusts the chain the device refused (an interception on that device, a store or a
    /// platform rule pinctl does not model, a policy file that is not what the app ships).
    enum Gate: String, Sendable, CaseIterable {
        case predicted, unexpected
    }

    let receivedAt: Date
    let report: PinFailureReport
    let app: String
    let gate: Gate
    /// pinctl's reasons: the rejections' codes, or the trust's basis.
    let reasons: [String]
    /// The platform ranges the verdict is for, when the file names platforms.
    let platforms: [String]

    /// "predicted: ios-trustkit rejects the reported chain (public-key-not-pinned)".
    var summary: String {
        let on = platforms.isEmpty ? "" : " on " + platforms.joined(separator: ", ")
        return "\(gate.rawValue): \(app) \(gate == .predicted ? "rejects" : "trusts") the reported chain "
            + "(\(reasons.joined(separator: ", "))\(on))"
    }

    /// How far TrustKit-Android's `date-time` may be from UTC: it is the device's local time (UTC−12 to UTC+14).
    static let androidClockSpread: TimeInterval = 14 * 3600

    /// Judges `report` by the app named in the path (`/report/APP`), or else by the one app of the file that covers
    /// its host at its version. A report that cannot be judged is refused with the reason, never counted.
    static func judge(_ report: PinFailureReport, appName: String?, policy: LoadedPolicy, receivedAt: Date)
        throws(RequestRefusal) -> ReportJudgement
    {
        if let problem = DomainName.syntaxError(report.hostname) {
            throw RequestRefusal(status: .badRequest, message: "hostname \(report.hostname): \(problem)")
        }
        let app = try self.app(for: report, named: appName, file: policy.file)
        // TrustKit-Android's time may be off by the device's offset from UTC: judged at both ends of that spread,
        // the report counts only when both agree.
        let times = report.platform == .android
            ? [report.time - androidClockSpread, report.time + androidClockSpread] : [report.time]
        var verdicts: [(rejected: Bool, reasons: [String], platforms: [String])] = []
        for time in times {
            let results = policy.plan.at(time, onlyApp: app.name)
                .judge(report.chain, target: "report from \(report.bundleID)", domain: report.hostname)
            let reports = onDevicesVersions(results.reports.filter { $0.app?.name == app.name }, report)
            guard !reports.isEmpty else {
                let failure = results.compactMap { result -> FailureReport? in
                    if case .failed(let failure) = result { return failure }
                    return nil
                }.first
                throw RequestRefusal(status: .unprocessableContent, message: "app \(app.name) cannot judge the "
                    + "report's chain: \(failure?.message ?? "no result")")
            }
            let rejected = reports.filter { !$0.evaluation.isTrusted }
            verdicts.append((!rejected.isEmpty, Array(Set((rejected.isEmpty ? reports : rejected)
                .map { ProbeMetrics.reason($0.evaluation) })).sorted(),
                (rejected.isEmpty ? reports : rejected).compactMap { $0.platform?.name }))
        }
        guard verdicts.allSatisfy({ $0.rejected == verdicts[0].rejected }) else {
            throw RequestRefusal(status: .unprocessableContent, message: "TrustKit-Android writes date-time in the "
                + "device's local time, and app \(app.name)'s verdict on the chain changes within the 14 hours either "
                + "side of \(Timestamp.iso8601(report.time)): it cannot be judged")
        }
        return ReportJudgement(receivedAt: receivedAt, report: report, app: app.name,
                               gate: verdicts[0].rejected ? .predicted : .unexpected, reasons: verdicts[0].reasons,
                               platforms: verdicts[0].platforms)
    }

    /// The app the report is for: the one named, which must cover the host and carry the version; or the only app
    /// that does.
    private static func app(for report: PinFailureReport, named name: String?, file: PolicyFile)
        throws(RequestRefusal) -> PolicyFile.App
    {
        let what = "\(report.hostname) at version \(report.appVersion)"
        if let name {
            guard let app = file.apps.first(where: { $0.name == name }) else {
                throw RequestRefusal(status: .notFound, message: "app \(name): \(file.path) has no app of that name "
                    + "(its apps: \(file.apps.map(\.name).joined(separator: ", ")))")
            }
            guard app.covers(report.hostname) else {
                throw RequestRefusal(status: .unprocessableContent, message: "app \(name) of \(file.path) does not "
                    + "cover \(report.hostname)")
            }
            guard app.carries(version: report.appVersion) else {
                throw RequestRefusal(status: .unprocessableContent, message: "app \(name) of \(file.path) lists "
                    + "versions \(app.versions.joined(separator: ", ")), not \(report.appVersion)")
            }
            return app
        }
        // The apps TrustKit could have sent it from: TrustKit's own on Apple's platforms; on Android, TrustKit-Android
        // reads its pins from the Network Security Configuration, so an app described by its NSC file too.
        let libraries: Set<Library> = report.platform == .android ? [.trustkit, .nsc] : [.trustkit]
        let apps = file.apps.filter {
            libraries.contains($0.library) && $0.covers(report.hostname) && $0.carries(version: report.appVersion)
        }
        guard apps.count == 1 else {
            throw RequestRefusal(status: .unprocessableContent, message: (apps.isEmpty
                ? "no TrustKit app of \(file.path) covers \(what)"
                : "apps \(apps.map(\.name).joined(separator: ", ")) of \(file.path) all cover \(what)")
                + ": post the report to /report/APP, naming the app that sent it")
        }
        return apps[0]
    }

    /// The results for the versions the device runs: iOS and macOS reports name the OS version, which picks the
    /// platform ranges holding it; otherwise (Android, or a version outside every range) all of them.
    private static func onDevicesVersions(_ reports: [TargetReport], _ report: PinFailureReport) -> [TargetReport] {
        let platform = switch report.platform {
        case .ios: "ios"
        case .macos: "macos"
        default: ""
        }
        guard let text = report.platformVersion, let version = PlatformVersion(text) else { return reports }
        let holding = reports.filter { result in
            guard let range = result.platform, range.platform == platform else { return false }
            let width = range.first.version.components.count
            let device = Array((version.components + Array(repeating: 0, count: width)).prefix(width))
            return !device.lexicographicallyPrecedes(range.first.version.components)
                && !range.last.version.components.lexicographicallyPrecedes(device)
        }
        return holding.isEmpty ? reports : holding
    }
}
