import Checking
import PolicyEngine

/// Which apps of a policy file a run found broken, and which pass: the one line a CI log is read for.
struct BreakageSummary {
    private(set) var broken: [(app: String, versions: [String], targets: [String])] = []
    private var passing: [String] = []

    mutating func add(_ reports: [TargetReport]) {
        for report in reports {
            guard let app = report.app else { continue }
            if report.evaluation.isTrusted {
                if !passing.contains(app.name), !broken.contains(where: { $0.app == app.name }) { passing.append(app.name) }
            } else if let index = broken.firstIndex(where: { $0.app == app.name }) {
                if !broken[index].targets.contains(report.target) { broken[index].targets.append(report.target) }
            } else {
                passing.removeAll { $0 == app.name }
                broken.append((app.name, app.versions, [report.target]))
            }
        }
    }

    /// Whether no app was judged (every target failed, or no app covered it): there is nothing to sum up.
    var isEmpty: Bool { broken.isEmpty && passing.isEmpty }

    /// "this breaks android (5.0-5.9) on api.example.com:443; ios-afn and okhttp-sdk pass".
    var line: String {
        let passes = passing.isEmpty ? "" : Self.list(passing) + (passing.count == 1 ? " passes" : " pass")
        guard !broken.isEmpty else { return Terminal.safe("summary: nothing breaks; " + passes) }
        let breaks = Self.list(broken.map { entry in
            let versions = entry.versions.isEmpty ? "" : " (\(AppTable.versions(entry.versions)))"
            return entry.app + versions + " on " + entry.targets.joined(separator: ", ")
        })
        return Terminal.safe("summary: this breaks " + breaks + (passes.isEmpty ? "" : "; " + passes))
    }

    private static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
