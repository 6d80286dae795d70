import FoundationEssentials
import PolicyEngine

/// The fleet at a glance (#36): a row per target, a column per app of the policy file, and in each (target, app)
/// one cell per platform range with the latest verdict, its reason and the days until the first rotation that breaks
/// the app; the worst rows first. Only what the probes found: nothing is probed to draw it.
enum FleetTable {
    static func render(_ rows: [Fleet.Row], policy: LoadedPolicy, now: Date) -> String {
        let apps = policy.file.apps
        let shown = withUnprobedTargets(rows, policy: policy).sorted { left, right in
            let (l, r) = (worst(left), worst(right))
            if l.0 != r.0 { return l.0 < r.0 }
            if l.1 != r.1 { return l.1 < r.1 }
            return (left.target, left.domain) < (right.target, right.domain)
        }
        var html = "<h2>Fleet</h2>\n<table class=\"fleet\"><thead><tr><th>target</th>"
        for app in apps {
            html += "<th scope=\"col\">\(escape(app.name))<br><small>\(escape(app.library.rawValue))"
                + (app.versions.isEmpty ? "" : " \(escape(app.versions.joined(separator: ", ")))")
                + "<br>\(escape(StatusPage.hosts(of: app).joined(separator: ", ")))</small></th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for row in shown {
            html += "<tr><th scope=\"row\">\(escape(row.target))"
                + (row.domain == row.host ? "" : "<br><small>as \(escape(row.domain))</small>")
                + (row.uncovered.map { "<br><small class=\"error\">\(escape($0))</small>" } ?? "") + "</th>"
            for app in apps {
                html += cell(row, app: app, policy: policy, now: now)
            }
            html += "</tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// The (target, app) entry: a cell per platform range, or why there is none.
    private static func cell(_ row: Fleet.Row, app: PolicyFile.App, policy: LoadedPolicy, now: Date) -> String {
        let link = HTML.probeLink([("target", row.target), ("servername", row.domain), ("app", app.name)])
        guard let cells = row.cells[app.name], !cells.isEmpty else {
            return app.covers(row.domain)
                ? "<td class=\"unprobed\"><a href=\"\(link)\">not probed yet</a></td>"
                : "<td class=\"uncovered\">does not cover \(escape(row.domain))</td>"
        }
        var html = "<td>"
        for cell in cells {
            // Judged before the policy file in use was read: the verdict may not be this file's.
            let stale = cell.probedAt < policy.loadedAt
            html += "<div class=\"cell \(cell.verdict.rawValue)\(stale ? " stale" : "")\" "
                + "data-app=\"\(escape(app.name))\" data-platform=\"\(escape(cell.platform ?? ""))\">"
            if let platform = cell.platform { html += "<span class=\"platform\">\(escape(platform))</span> " }
            html += "<a href=\"\(link)\">\(cell.verdict.rawValue)</a> "
                + "<span class=\"reason\">\(escape(cell.reason))</span>"
            if !cell.detail.isEmpty { html += "<br><span class=\"detail\">\(escape(cell.detail))</span>" }
            if let breaksOn = cell.breaksOn {
                html += "<br><span class=\"breaks\">\(breaks(breaksOn, now: now))</span>"
            }
            html += "<br><small>probed \(escape(Timestamp.iso8601(cell.probedAt)))"
                + (stale ? ", before the policy file was read again" : "") + "</small></div>"
        }
        return html + "</td>"
    }

    /// "breaks in 12 days (2026-12-11)": the first rotation that breaks the app is due then.
    private static func breaks(_ date: Date, now: Date) -> String {
        let days = Int(((date.timeIntervalSince1970 - now.timeIntervalSince1970) / 86_400).rounded(.down))
        let day = String(Timestamp.iso8601(date).prefix(10))
        return days < 0 ? "broke \(-days) days ago (\(day))" : "breaks in \(days) day\(days == 1 ? "" : "s") (\(day))"
    }

    /// The probed rows, and a row for each of the file's targets no probe has reached yet.
    private static func withUnprobedTargets(_ rows: [Fleet.Row], policy: LoadedPolicy) -> [Fleet.Row] {
        let probed = Set(rows.map(\.target))
        return rows + policy.file.targets.filter { !probed.contains($0.description) }.map { target in
            Fleet.Row(target: target.description, host: target.host, domain: target.host, probedAt: .distantPast)
        }
    }

    /// A row's worst cell's severity; rows without a verdict last.
    private static func worst(_ row: Fleet.Row) -> (Int, Double) {
        row.cells.values.joined().map(\.severity).min { $0 < $1 } ?? (4, 0)
    }

    private static func escape(_ text: String) -> String { HTML.escape(text) }
}
