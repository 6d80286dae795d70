import Checking
import FoundationEssentials
import PolicyEngine

/// `GET /`: the policy file's apps and targets and the latest probes, as a small HTML page for a person.
enum StatusPage {
    static func render(policy: LoadedPolicy, reload: ReloadProgress.Running?, fleet: [Fleet.Row],
                       reports: [ReportJudgement], recent: [RecentProbe], settings: ExporterSettings) -> String
    {
        let file = policy.file
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>pinctl serve</title>
            <style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}\
            td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}\
            .rejected,.error{color:#b00}.trusted{color:#070}\
            .cell{padding:.2em 0}.cell+.cell{border-top:1px dotted #ccc}\
            .cell.rejected{background:#fee}.cell.error{background:#fff4e0}.stale{opacity:.6}\
            .uncovered,.unprobed{color:#777}.unexpected{color:#b00;font-weight:bold}</style></head><body>
            <h1>pinctl serve</h1>
            <p>Policy file <code>\(escape(file.path))</code>, read \(escape(Timestamp.iso8601(policy.loadedAt))). \
            Probe with <code>/probe?target=HOST:PORT[&amp;app=NAME][&amp;servername=NAME]</code>; \
            the exporter's own metrics are at <a href="/metrics">/metrics</a>.</p>
            \(reloadNotice(reload, settings: settings))\(FleetTable.render(fleet, policy: policy,
                                                                          now: settings.fixedTime ?? Date()))\
            \(FieldReportList.render(reports))<h2>Apps</h2>
            <table><tr><th>app</th><th>library</th><th>versions</th><th>hosts</th></tr>

            """
        for app in file.apps {
            html += "<tr><td>\(escape(app.name))</td><td>\(escape(app.library.rawValue))</td>"
                + "<td>\(escape(app.versions.joined(separator: ", ")))</td>"
                + "<td>\(escape(hosts(of: app).joined(separator: ", ")))</td></tr>\n"
        }
        html += "</table>\n<h2>Targets</h2>\n"
        html += settings.allowAnyTarget
            ? "<p>Any target may be probed (--allow-any-target).</p>\n"
            : "<p>Only these may be probed:</p>\n"
        html += "<ul>\n" + file.targets.map { target in
            "<li><a href=\"\(HTML.probeLink([("target", target.description)]))\">"
                + "\(escape(target.description))</a></li>\n"
        }.joined() + "</ul>\n"
        html += "<h2>Recent probes</h2>\n"
        if recent.isEmpty {
            html += "<p>None yet.</p>\n"
        } else {
            html += "<table><tr><th>started (UTC)</th><th>target</th><th>domain</th><th>outcome</th><th>seconds</th>"
                + "<th>apps</th></tr>\n"
            for probe in recent {
                html += "<tr><td>\(escape(Timestamp.iso8601(probe.startedAt)))</td>"
                    + "<td>\(escape(probe.target))</td><td>\(escape(probe.domain))</td>"
                    + "<td class=\"\(probe.outcomeWord)\">\(probe.outcomeWord)</td>"
                    + "<td>\(String(Int((probe.seconds * 1000).rounded())) + " ms")</td>"
                    + "<td>\(escape(probe.details))</td></tr>\n"
            }
            html += "</table>\n"
        }
        return html + "</body></html>\n"
    }

    /// The hosts an app covers: those its library's policy names, then its `hosts:`, each once.
    static func hosts(of app: PolicyFile.App) -> [String] {
        var seen: Set<String> = []
        return (app.policy.ruleHosts + app.hosts).filter { seen.insert($0.lowercased()).inserted }
    }

    /// A paragraph on the reload under way, if any; one past --reload-timeout in the error colour.
    private static func reloadNotice(_ reload: ReloadProgress.Running?, settings: ExporterSettings) -> String {
        guard let reload else { return "" }
        let since = escape(Timestamp.iso8601(reload.since))
        guard reload.stuck else { return "<p>A reload of the policy file is running, since \(since).</p>\n" }
        return "<p class=\"error\">A reload of the policy file is stuck: running since \(since), longer than "
            + "--reload-timeout (\(settings.reloadTimeout) s). The policy file read before stays in use; a SIGHUP now "
            + "reloads only once this one ends.</p>\n"
    }

    private static func escape(_ text: String) -> String { HTML.escape(text) }
}
