import Checking
import PolicyEngine
import XMLTree

/// JUnit XML as CI servers read it: one `testsuite` per app (per library for a policy given by flags), one `testcase`
/// per target, a `failure` for a rejection (its type the reason code, its text the whole message) and an `error`
/// when no evaluation could happen. Written with libxml2.
struct JUnitReport {
    let items: [TargetResult]

    init(_ items: [TargetResult]) { self.items = items }

    private struct Case {
        let suite: String
        let name: String
        let problem: (kind: String, type: String, message: String, text: String)?
    }

    var document: [UInt8] {
        let cases = items.map { item -> Case in
            switch item {
            case .judged(let report):
                let suite = report.app?.name ?? report.policy.library.rawValue
                let problem = report.evaluation.rejection.map { rejection in
                    (kind: "failure", type: rejection.reason.code,
                     message: report.evaluation.rejectionMessageLines.first ?? "",
                     text: report.evaluation.rejectionMessage ?? "")
                }
                return Case(suite: suite, name: report.target, problem: problem)
            case .failed(let failure):
                let suite = failure.app?.name ?? failure.library?.rawValue ?? "pinctl"
                return Case(suite: suite, name: failure.target ?? "pinctl",
                            problem: (kind: "error", type: failure.code, message: failure.message, text: failure.message))
            }
        }
        var suites: [String] = []
        for suite in cases.map(\.suite) where !suites.contains(suite) { suites.append(suite) }
        let elements = suites.map { suite -> XMLOutputElement.Child in
            let members = cases.filter { $0.suite == suite }
            return .element(XMLOutputElement("testsuite", attributes: Self.counts(members) + [("name", suite)],
                                             children: members.map { testCase in
                let problem = testCase.problem.map { problem -> XMLOutputElement.Child in
                    .element(XMLOutputElement(problem.kind, attributes: [("message", problem.message), ("type", problem.type)],
                                              children: [.text(problem.text)]))
                }
                return .element(XMLOutputElement("testcase", attributes: [("classname", suite), ("name", testCase.name)],
                                                 children: problem.map { [$0] } ?? []))
            }))
        }
        return Self.serialize(XMLOutputElement("testsuites", attributes: Self.counts(cases) + [("name", "pinctl")],
                                               children: elements))
    }

    /// A JUnit document (of check or lint): a character XML cannot hold shown as a visible escape (`\x1B`), and, since
    /// the document may be printed on a GitHub Actions runner, no `##[` and no line starting `::` (`RunnerCommands`):
    /// their first character written as a character reference, which every XML reader reads as the same text. The
    /// document has no comment, where a reference would not be read as one.
    static func serialize(_ root: XMLOutputElement) -> [UInt8] {
        let document = String(decoding: XMLDocumentWriter.report(root), as: UTF8.self)
        return Array(RunnerCommands.neutralised(document, hash: "&#35;", colon: "&#58;").utf8)
    }

    private static func counts(_ cases: [Case]) -> [(name: String, value: String)] {
        [("tests", "\(cases.count)"), ("failures", "\(cases.filter { $0.problem?.kind == "failure" }.count)"),
         ("errors", "\(cases.filter { $0.problem?.kind == "error" }.count)")]
    }
}
