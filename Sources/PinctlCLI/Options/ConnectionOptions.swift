import ArgumentParser
import Checking
import TextSyntax
import Transport

/// How to reach a live target (`check`, `chain`, `extract`).
struct ConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The SNI name and the domain to check (default: the target's host).", valueName: "name"))
    var servername: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds for resolution, connect and handshake together, per target.", valueName: "seconds"))
    var timeout: Double = 10

    @Flag(name: .customShort("4"), help: "Connect over IPv4 only.")
    var ipv4Only = false

    @Flag(name: .customShort("6"), help: "Connect over IPv6 only.")
    var ipv6Only = false

    @Option(name: .customLong("resolve"), help: ArgumentHelp(
        "Use these addresses for HOST:PORT instead of DNS, tried in order (curl's form); repeatable.",
        valueName: "host:port:addr[,addr...]"))
    var resolveEntries: [String] = []

    @Option(help: ArgumentHelp(
        "Connect through this HTTP proxy with CONNECT (default: https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY as "
            + "curl reads them, minus no_proxy/NO_PROXY; '' for none).",
        valueName: "http://[user:pass@]host:port"))
    var proxy: String?

    @Option(help: ArgumentHelp(
        "Upgrade a plain-text session to TLS first: smtp, imap, pop3, ftp, xmpp, postgres, ldap, or auto (by "
            + "well-known port).",
        valueName: "protocol"))
    var starttls: StartTLSChoice?

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout \(timeout): must be more than 0 and at most 3600 seconds") }
        guard !(ipv4Only && ipv6Only) else { throw ValidationError("-4 and -6 exclude each other") }
        if let servername, let problem = DomainName.syntaxError(servername) {
            throw ValidationError("--servername \(servername): \(problem)")
        }
        _ = try resolved()
        if let proxy, !proxy.isEmpty { _ = try ProxyServer(parsing: proxy, origin: "--proxy") }
    }
}
