import Checking
import PolicyEngine

/// The apps of a policy file judging one chain, a row each: name, library, versions, verdict and why; under each
/// rejected row, the rejection's message.
struct AppTable {
    let reports: [TargetReport]

    var lines: [String] {
        let header = ["app", "library", "versions", "verdict", ""]
        let rows = reports.map { report -> [String] in
            [report.app?.name ?? "", report.policy.library.rawValue, Self.versions(report.app?.versions ?? []),
             report.evaluation.isTrusted ? "TRUSTED" : "REJECTED", Self.detail(report)]
        }
        let widths = (0..<4).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String], paint: Terminal.Colour? = nil) -> String {
            let padded = (0..<4).map { cells[$0] + String(repeating: " ", count: widths[$0] - cells[$0].count) }
            var verdict = padded[3]
            if let paint { verdict = Terminal.paint(verdict, paint) }
            let text = "  " + [Terminal.safe(padded[0]), padded[1], Terminal.safe(padded[2]), verdict,
                                Terminal.safe(cells[4])].joined(separator: "  ")
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        var lines = [line(header)]
        for (report, row) in zip(reports, rows) {
            lines.append(line(row, paint: report.evaluation.isTrusted ? .green : .red))
            if !report.evaluation.isTrusted {
                lines += report.evaluation.rejectionMessageLines.map { "      " + Terminal.safe($0) }
            }
        }
        return lines
    }

    /// "4.2, 4.3, 4.4", or "-" when the file names none.
    static func versions(_ versions: [String]) -> String { versions.isEmpty ? "-" : versions.joined(separator: ", ") }

    /// The reason code, or what the trust rests on.
    private static func detail(_ report: TargetReport) -> String {
        let evaluation = report.evaluation
        if let rejection = evaluation.rejection { return rejection.reason.code }
        if let match = evaluation.matchedPin {
            let index = evaluation.index(of: match.certificate).map { " #\($0)" } ?? ""
            return "pin \(match.source) matched certificate\(index)"
        }
        return evaluation.trustBasis?.explanation ?? "chain valid, nothing pinned"
    }
}
