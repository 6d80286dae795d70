import ArgumentParser
import Checking
import FoundationEssentials
import Logging
import PolicyEngine

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a Prometheus exporter that checks targets by a policy file's apps as Prometheus scrapes them.",
        discussion: """
            GET /probe?target=HOST:PORT[&app=NAME][&servername=NAME] connects to the target now and answers \
            probe_success, probe_duration_seconds, probe_ssl_earliest_cert_expiry (the blackbox exporter's names) \
            and pinctl_probe_success{app}, pinctl_verdict{app,reason}, pinctl_certificate_not_after_seconds; \
            servername is the SNI name and the domain judged (default: the target's host). A policy file that \
            names platforms: is judged as check --config judges it, on each version's store from --stores (else \
            PINCTL_STORES, else the copy installed with pinctl), and each app's metrics carry a platform label per \
            range of versions with one verdict (android@24, android@25-36). GET /metrics gives the \
            exporter's own metrics, GET / the fleet view: the latest verdict of every (target, app, platform range), \
            the worst first, then the field reports, the apps and the latest probes. POST /report (or /report/APP) \
            takes a TrustKit pin-failure report (point an app's reportUris here), judges its chain by the policy \
            file for the app and version at the report's time, and counts pinctl_field_reports_total{app,host,gate}: \
            gate predicted when pinctl rejects the chain too, unexpected when it trusts it. Only the policy file's targets \
            may be probed (403 otherwise) unless --allow-any-target. SIGHUP reads the policy file again (a file \
            that does not load, or still loading after --reload-timeout, leaves the old one in use; probes use it \
            meanwhile); SIGTERM lets the probes under way finish and exits 0. HEAD is answered as GET without the \
            body (HEAD /probe runs the probe, as the blackbox exporter does). A connection that sends no complete \
            request within --header-timeout is closed, so is one refused (its body is never read), and one client \
            address holds at most --max-connections-per-address connections.

            Examples:
              pinctl serve --config pinctl.yaml --listen 127.0.0.1:9489
              pinctl serve --config pinctl.yaml --listen '[::1]:9489' --timeout 5
            """
    )

    @Option(help: ArgumentHelp("The policy file (pinctl.yaml) whose apps judge every probe.", valueName: "file"))
    var config: String

    @Option(help: ArgumentHelp("Where to listen: ADDR:PORT or [IPv6]:PORT (port 0: any free one, logged).",
                               valueName: "addr:port"))
    var listen: String

    @Flag(help: ArgumentHelp(
        "Probe any host:port, not only the policy file's targets.",
        discussion: "Warning: anyone who can reach the exporter can then make it connect anywhere (SSRF)."))
    var allowAnyTarget = false

    // As `check --revocation-allow-private`, and only on the command line for the same reason: the policy file may
    // come from the repository being checked.
    @Flag(help: ArgumentHelp(
        "Let OCSP and CRL fetches (Alamofire's revocation evaluator) connect to loopback, private, link-local, CGNAT, "
            + "multicast and other non-public addresses.",
        discussion: "Warning: the URL comes from the probed server's certificate, so the server then chooses a host "
            + "inside your network for the exporter to send a request to. Without it such a fetch is refused and the "
            + "app that asked for it gets the error."))
    var revocationAllowPrivate = false

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Probes that may run at once; more are answered 503.", valueName: "n"))
    var maxProbes: Int = 64

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds for resolution, connect and handshake of one probe; Prometheus's scrape timeout caps it.",
        valueName: "seconds"))
    var timeout: Double = 10

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds a connection has to send a complete request, head and any body, from when it opens or was last "
            + "answered; then it is closed (a client trickling a request byte by byte holds a connection no longer).",
        valueName: "seconds"))
    var headerTimeout: Double = 10

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds a reload (SIGHUP) may run before it counts as failed; the previous policy file stays in use.",
        valueName: "seconds"))
    var reloadTimeout: Double = 30

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Connections one client address may hold open at once; more are closed as soon as accepted.",
        valueName: "n"))
    var maxConnectionsPerAddress: Int = 256

    @OptionGroup var anchors: AnchorOptions

    // As check's: a policy file's `platforms:` are judged on these snapshots.
    @OptionGroup var storeOptions: StoresOptions

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Warn about certificates expiring within this many days.", valueName: "days"))
    var warnDays: Int = 30

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (logs go to stderr).",
                               valueName: "level"))
    var logLevel: String = "info"

    func validate() throws {
        guard (1...1024).contains(maxProbes) else {
            throw ValidationError("--max-probes \(maxProbes): must be from 1 to 1024")
        }
        guard timeout > 0, timeout <= 3600 else {
            throw ValidationError("--timeout \(timeout): must be more than 0 and at most 3600 seconds")
        }
        guard headerTimeout > 0, headerTimeout <= 3600 else {
            throw ValidationError("--header-timeout \(headerTimeout): must be more than 0 and at most 3600 seconds")
        }
        guard reloadTimeout > 0, reloadTimeout <= 3600 else {
            throw ValidationError("--reload-timeout \(reloadTimeout): must be more than 0 and at most 3600 seconds")
        }
        guard (1...1024).contains(maxConnectionsPerAddress) else {
            throw ValidationError("--max-connections-per-address \(maxConnectionsPerAddress): must be from 1 to 1024")
        }
        guard warnDays >= 0 else { throw ValidationError("--warn-days \(warnDays): must be 0 or more") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level \(logLevel): expected trace, debug, info, notice, warning, error or "
                + "critical")
        }
        _ = try ListenAddress(listen)
    }

    func run() throws {
        let address = try ListenAddress(listen)
        guard let serve = Serving.handler else { try ServeHandOff.execute() }
        let anchorSettings = anchors.settings
        let request = ServeRequest(
            configPath: config, host: address.host, port: address.port, allowAnyTarget: allowAnyTarget,
            maxProbes: maxProbes, timeout: timeout, headerTimeout: headerTimeout, reloadTimeout: reloadTimeout,
            maxConnectionsPerAddress: maxConnectionsPerAddress,
            fixedTime: anchors.at == nil ? nil : anchorSettings.time,
            warnDays: warnDays, revocationAllowPrivate: revocationAllowPrivate,
            logLevel: Logger.Level(rawValue: logLevel) ?? .info,
            anchors: anchorSettings, storesDirectory: storeOptions.location)
        if let failure = serve(request) {
            Terminal.printError("pinctl serve: \(failure)")
            try ExitStatus.inputError.exit()
        }
    }
}

/// How `pinctl serve` serves.
package enum Serving {
    /// Set by pinctl-serve's `main`. In pinctl itself it stays nil and `serve` hands its command line to pinctl-serve:
    /// the exporter's HTTP stack (SwiftNIO, Hummingbird) would add 11 MB to every pinctl, and a third more protocol
    /// conformances for the Swift runtime to scan at every start. Returns why serving failed, or nil.
    nonisolated(unsafe) package static var handler: ((ServeRequest) -> String?)?
}

/// What `pinctl serve` was asked for, checked, for pinctl-serve to serve.
package struct ServeRequest: Sendable {
    package let configPath: String
    package let host: String
    package let port: Int
    package let allowAnyTarget: Bool
    package let maxProbes: Int
    package let timeout: Double
    package let headerTimeout: Double
    package let reloadTimeout: Double
    package let maxConnectionsPerAddress: Int
    package let fixedTime: Date?
    package let warnDays: Int
    /// `--revocation-allow-private`.
    package let revocationAllowPrivate: Bool
    package let logLevel: Logger.Level
    /// `--ca-file`, `--ca-path` and `--at`, as `check` takes them.
    package let anchors: AnchorSettings
    /// `--stores`, else `PINCTL_STORES`, else the installed copy: the snapshots of the platforms a policy file names.
    package let storesDirectory: StoreLocation
}

/// `--listen`: HOST:PORT or [IPv6]:PORT.
struct ListenAddress {
    let host: String
    let port: Int

    init(_ text: String) throws(ValidationError) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw ValidationError("--listen \(text): expected [IPv6]:PORT") }
            portPart = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") {
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        } else {
            throw ValidationError("--listen \(text): expected ADDR:PORT or [IPv6]:PORT, e.g. 127.0.0.1:9489")
        }
        guard !hostPart.isEmpty else {
            throw ValidationError("--listen \(text): give the address to listen on (0.0.0.0 for every IPv4 one)")
        }
        guard let port = Int(portPart), (0...65535).contains(port) else {
            throw ValidationError("--listen \(text): port '\(portPart)' is not a number from 0 to 65535")
        }
        host = String(hostPart)
        self.port = port
    }
}
