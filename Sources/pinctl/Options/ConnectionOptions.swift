import ArgumentParser
import Foundation
import OpenSSLWrapper
import PolicyEngine

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

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout \(timeout): must be more than 0 and at most 3600 seconds") }
        guard !(ipv4Only && ipv6Only) else { throw ValidationError("-4 and -6 exclude each other") }
        if let servername, let problem = DomainName.syntaxError(servername) {
            throw ValidationError("--servername \(servername): \(problem)")
        }
    }

    /// The domain a target is checked against: `--servername`, or the target's host.
    func domain(for target: Target) -> String { servername ?? target.host }

    /// Connects and returns what the server presented; failures carry DESIGN §2's error codes.
    func handshake(with target: Target) throws(TLSConnectionError) -> TLSHandshakeResult {
        let family: AddressFamily = ipv4Only ? .ipv4 : ipv6Only ? .ipv6 : .any
        let options = TLSConnectOptions(serverName: domain(for: target), timeout: timeout, family: family)
        return try TLSClient.handshake(host: target.host, port: target.port, options: options)
    }
}
