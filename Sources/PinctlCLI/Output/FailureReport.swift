import FoundationEssentials
import PolicyEngine

/// When no evaluation could happen: DESIGN §5's `error` verdict, with the same identifying fields as a judged one.
struct FailureReport: Sendable {
    /// nil when the command line itself was wrong (no target to name).
    let target: String?
    let domain: String?
    let time: Date?
    let app: AppIdentity?
    let library: Library?
    let policy: [(String, SummaryValue)]?
    /// `input` (exit 2), or a connection failure's kind (`dns`, `refused`, … exit 3).
    let code: String
    let message: String
    /// The edge that failed, when `check` split the target into edges.
    var edge: Edge?

    init(target: String?, domain: String? = nil, time: Date? = nil, app: AppIdentity? = nil, policy: (any TrustPolicy)? = nil,
         code: String, message: String) {
        self.target = target
        self.domain = domain
        self.time = time
        self.app = app
        library = policy?.library
        self.policy = policy?.summary
        self.code = code
        self.message = message
    }

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

/// One line of a run's results, judged or not: what every output format is a view of.
enum ResultItem: Sendable {
    case judged(TargetReport)
    case failed(FailureReport)
}
