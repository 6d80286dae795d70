import Checking
import PolicyEngine

/// GitHub Actions' workflow commands (`::error file=…,line=…,title=…::message`), printed on stdout in text mode when
/// GITHUB_ACTIONS=true, so a rejection shows on the pull request, at the policy file's line when there is one.
enum GitHubAnnotations {
    static func emit(_ item: TargetResult) {
        switch item {
        case .judged(let report):
            let evaluation = report.evaluation
            if let rejection = evaluation.rejection {
                print(line("error", title: "pinctl: \(rejection.reason.code)", app: report.app,
                           message: who(report.target, report.app) + ": " + (evaluation.rejectionMessageLines.first ?? "")))
            } else if case .failedOpen(let why)? = evaluation.trustBasis {
                print(line("warning", title: "pinctl: pinning failed open", app: report.app,
                           message: who(report.target, report.app) + ": " + why))
            }
        case .failed(let failure):
            print(line("error", title: "pinctl: \(failure.code)", app: failure.app,
                       message: who(failure.target ?? "pinctl", failure.app) + ": " + failure.message))
        }
    }

    private static func who(_ target: String, _ app: AppIdentity?) -> String {
        guard let app else { return target }
        return "\(target) (\(app.name)\(app.versions.isEmpty ? "" : " " + AppTable.versions(app.versions)))"
    }

    private static func line(_ level: String, title: String, app: AppIdentity?, message: String) -> String {
        var properties: [String] = []
        if let app {
            properties.append("file=" + escapeProperty(app.file))
            if let line = app.line { properties.append("line=\(line)") }
        }
        properties.append("title=" + escapeProperty(title))
        return "::\(level) \(properties.joined(separator: ","))::" + escapeData(message)
    }

    /// The runner's escapes for a message: %, CR and LF; then the terminal's rule, which also keeps `##[` from forming
    /// a command of its own inside the message.
    static func escapeData(_ text: String) -> String {
        Terminal.safe(text.replacingScalars { ["%": "%25", "\r": "%0D", "\n": "%0A"][$0] })
    }

    /// And for a property, also the separators `:` and `,`.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingScalars { [":": "%3A", ",": "%2C"][$0] }
    }
}
