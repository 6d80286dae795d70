import FoundationEssentials
import Synchronization

/// The latest verdict of every (target, app, platform range) the probes have judged, for the fleet view at `/`.
/// Filled from the results serve already has (no probe of its own); a probe replaces the cells of each app it judged,
/// so an `app=` probe leaves the other apps' cells as they were.
final class Fleet: Sendable {
    /// One row: a target probed with one server name.
    struct Row: Sendable {
        let target: String
        /// The target's host, which the row names only when the server name differs.
        let host: String
        let domain: String
        /// Each app's cells, one per platform range (one without a range when the file names no platforms).
        var cells: [String: [FleetCell]] = [:]
        /// Why the last probe judged nothing when no app covers the domain; nil otherwise.
        var uncovered: String? = nil
        var probedAt: Date
        /// Whether the target is one of the policy file's `targets:`, which are never forgotten.
        var listed = true

        var key: String { Fleet.key(target: target, domain: domain) }
    }

    /// Rows kept for targets that are not the policy file's (`--allow-any-target`): the least recently probed go
    /// first, so a client naming endless targets cannot grow the exporter.
    static let otherTargetsKept = 256

    private let rows = Mutex([String: Row]())

    init() {}

    /// Records a probe: `coveringApps` are the apps the probe asked to judge, which an error leaves without a
    /// verdict; `listed` whether the target is one of the policy file's.
    func record(_ result: ProbeResult, coveringApps: [String], listed: Bool) {
        let cells = FleetCell.cells(of: result, coveringApps: coveringApps)
        let key = Self.key(target: result.target.description, domain: result.domain)
        rows.withLock { rows in
            var row = rows[key] ?? Row(target: result.target.description, host: result.target.host,
                                       domain: result.domain,
                                       probedAt: result.startedAt)
            row.probedAt = result.startedAt
            row.uncovered = nil
            if case .failed("uncovered", let message) = result.outcome { row.uncovered = message }
            for (app, appCells) in cells { row.cells[app] = appCells }
            row.listed = listed
            rows[key] = row
            let others = rows.values.filter { !$0.listed }
            if others.count > Self.otherTargetsKept, let oldest = others.min(by: { $0.probedAt < $1.probedAt }) {
                rows[oldest.key] = nil
            }
        }
    }

    var all: [Row] { rows.withLock { Array($0.values) } }

    static func key(target: String, domain: String) -> String { target + " " + domain }
}
