import PolicyEngine

/// The latest TrustKit reports received at `/report`, newest first: what the device said, and pinctl's gate on it.
enum FieldReportList {
    static func render(_ reports: [ReportJudgement]) -> String {
        var html = "<h2>Field reports</h2>\n"
        guard !reports.isEmpty else {
            return html + "<p>None yet. TrustKit apps send them when their <code>reportUris</code> name "
                + "<code>/report</code> (or <code>/report/APP</code>) here.</p>\n"
        }
        html += "<table class=\"reports\"><tr><th>received (UTC)</th><th>app</th><th>host</th><th>device</th>"
            + "<th>device's result</th><th>gate</th><th>pinctl</th></tr>\n"
        for judged in reports {
            let report = judged.report
            let device = "\(report.bundleID) \(report.appVersion) on \(report.platform.rawValue)"
                + (report.platformVersion.map { " \($0)" } ?? "") + ", at \(Timestamp.iso8601(report.time))"
            let verdict = judged.reasons.joined(separator: ", ")
                + (judged.platforms.isEmpty ? "" : " on " + judged.platforms.joined(separator: ", "))
            html += "<tr><td>\(escape(Timestamp.iso8601(judged.receivedAt)))</td><td>\(escape(judged.app))</td>"
                + "<td>\(escape(report.hostname))</td><td>\(escape(device))</td>"
                + "<td>\(escape(report.validationResultName))</td>"
                + "<td class=\"gate \(judged.gate.rawValue)\">\(judged.gate.rawValue)</td>"
                + "<td>\(escape(verdict))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    private static func escape(_ text: String) -> String { HTML.escape(text) }
}
