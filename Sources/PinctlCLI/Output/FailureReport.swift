import Checking
import FoundationEssentials
import PolicyEngine

extension FailureReport {
    var status: ExitStatus { code == "input" ? .inputError : .connectionFailure }

    var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let target {
            members.append(("target", .string(target)))
            if let app {
                members += [("app", .string(app.name)), ("versions", .array(app.versions.map { .string($0) }))]
            }
            if let library { members.append(("library", .string(library.rawValue))) }
            members.append(("domain", JSONValue(domain)))
            if let time { members.append(("evaluatedAt", .string(Timestamp.iso8601(time)))) }
            if let policy { members.append(("policy", TargetReport.json(policy))) }
        }
        return .object(members + [
            ("verdict", .string("error")),
            ("reason", .object([("code", .string(code)), ("message", .string(message))])),
        ] + (edge.map { [("edge", $0.json)] } ?? []))
    }
}
