import ArgumentParser
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// `--starttls`: a protocol, or `auto` to infer it from a well-known port.
enum StartTLSChoice: ExpressibleByArgument, Sendable, Equatable {
    case protocolName(StartTLSProtocol)
    case auto

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
        } else if let known = StartTLSProtocol(rawValue: argument) {
            self = .protocolName(known)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { StartTLSProtocol.allCases.map(\.rawValue) + ["auto"] }
}

extension ConnectionOptions {
    var family: AddressFamily { ipv4Only ? .ipv4 : ipv6Only ? .ipv6 : .any }

    /// Every `--resolve` entry, parsed.
    func resolved() throws(ValidationError) -> [ResolveEntry] {
        var entries: [ResolveEntry] = []
        for text in resolveEntries {
            do {
                entries.append(try ResolveEntry(parsing: text))
            } catch {
                throw ValidationError("--resolve \(error.description)")
            }
        }
        return entries
    }

    /// The addresses `--resolve` gives for the target, in order (the first matching entry, as in curl); nil when
    /// none does. `-4`/`-6` keep only their family.
    func pinnedAddresses(for target: Target) -> [SocketAddress]? {
        guard let entry = (try? resolved())?.first(where: { $0.covers(host: target.host, port: target.port) }) else {
            return nil
        }
        return entry.addresses.filter { address in
            switch family {
            case .any: true
            case .ipv4: !address.host.contains(":")
            case .ipv6: address.host.contains(":")
            }
        }
    }

    /// How the target is reached: `--resolve`'s addresses, the proxy for its host, the STARTTLS upgrade.
    func route(for target: Target) throws(InputError) -> Route {
        let proxies = ProxyConfiguration(explicit: proxy, environment: ProcessInfo.processInfo.environment)
        let server: ProxyServer?
        do {
            server = try proxies.proxy(forTLSHost: target.host)
        } catch {
            throw InputError(error.description)
        }
        let upgrade: StartTLSProtocol? = switch starttls {
        case nil: nil
        case .protocolName(let name)?: name
        case .auto?: StartTLSProtocol.wellKnown(port: target.port)
        }
        return Route(addresses: pinnedAddresses(for: target), proxy: server, startTLS: upgrade)
    }

    /// The options of one plain connection to the target: SNI, time, family and route.
    func connectOptions(for target: Target) throws(InputError) -> TLSConnectOptions {
        var options = TLSConnectOptions(serverName: domain(for: target), timeout: timeout, family: family)
        options.route = try route(for: target)
        return options
    }

    /// The proxies for plain HTTP fetches (OCSP, CRL): `--proxy`, else `http_proxy`/`all_proxy` as curl reads them.
    var fetchProxies: ProxyConfiguration {
        ProxyConfiguration(explicit: proxy, environment: ProcessInfo.processInfo.environment)
    }
}
