import FoundationEssentials
import HTTPTypes
import PolicyEngine
import TextSyntax

/// What `GET /probe?target=HOST:PORT[&app=NAME][&servername=NAME]` asks for, checked before any connection.
struct ProbeRequest: Sendable {
    let target: Target
    /// The SNI name and the domain the apps judge: `servername`, or the target's host.
    let domain: String
    /// Only this app of the file, when given.
    let app: String?
    /// Seconds the probe may take.
    let timeout: Double

    /// The header Prometheus sends with the scrape's timeout in seconds.
    static let scrapeTimeoutHeader = HTTPField.Name("X-Prometheus-Scrape-Timeout-Seconds")!

    /// Reads the query; `parameters` are the decoded query parameters in order (repeats kept).
    init(parameters: [(String, String)], scrapeTimeout: String?, policy: LoadedPolicy, settings: ExporterSettings)
        throws(RequestRefusal)
    {
        func single(_ name: String) throws(RequestRefusal) -> String? {
            let values = parameters.filter { $0.0 == name }.map(\.1)
            guard values.count <= 1 else {
                throw RequestRefusal(status: .badRequest, message: "give \(name) once, not \(values.count) times")
            }
            return values.first
        }
        guard let targetText = try single("target"), !targetText.isEmpty else {
            throw RequestRefusal(status: .badRequest, message: "missing target: /probe?target=HOST:PORT[&app=NAME]")
        }
        let target: Target
        do {
            target = try Target(parsing: targetText)
        } catch {
            throw RequestRefusal(status: .badRequest, message: error.description)
        }
        guard settings.allowAnyTarget || policy.lists(target) else {
            throw RequestRefusal(status: .forbidden, message: "target \(target) is not one of the targets of "
                + "\(policy.file.path): list it there (then send SIGHUP), or start pinctl serve with "
                + "--allow-any-target")
        }
        let servername = try single("servername")
        if let servername, let problem = DomainName.syntaxError(servername) {
            throw RequestRefusal(status: .badRequest, message: "servername \(servername): \(problem)")
        }
        let app = try single("app")
        if let app, !policy.file.apps.contains(where: { $0.name == app }) {
            throw RequestRefusal(status: .badRequest, message: "app \(app): \(policy.file.path) has no app of that "
                + "name (its apps: \(policy.file.apps.map(\.name).joined(separator: ", ")))")
        }
        self.target = target
        self.domain = servername ?? target.host
        self.app = app
        self.timeout = try Self.timeout(settings.timeout, scrapeTimeout: scrapeTimeout)
    }

    /// `--timeout`, capped by the scrape's own timeout less a margin for the answer to travel back: half a second,
    /// or half the scrape timeout when that is shorter.
    static func timeout(_ configured: Double, scrapeTimeout: String?) throws(RequestRefusal) -> Double {
        guard let scrapeTimeout else { return configured }
        guard let seconds = Double(scrapeTimeout.trimming(\.isBlank)), seconds.isFinite, seconds > 0
        else {
            throw RequestRefusal(status: .badRequest, message: "\(scrapeTimeoutHeader): '\(scrapeTimeout)' is not "
                + "a number of seconds above 0")
        }
        return min(configured, max(seconds - 0.5, seconds / 2))
    }
}
