import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import Transport

/// A STARTTLS upgrade: a protocol, or `auto` to infer it from a well-known port.
public enum StartTLSChoice: Sendable, Equatable {
    case protocolName(StartTLSProtocol)
    case auto

    /// `smtp`, `imap`, … or `auto`; nil for anything else.
    public init?(name: String) {
        if name == "auto" {
            self = .auto
        } else if let known = StartTLSProtocol(rawValue: name) {
            self = .protocolName(known)
        } else {
            return nil
        }
    }
}

/// How to reach a live target, as plain values: SNI, time, family, pinned addresses, proxy, STARTTLS.
public struct ConnectionSettings: Sendable {
    /// The SNI name and the domain to check; nil: the target's host.
    public var servername: String?
    /// Seconds for resolution, connect and handshake together, per target.
    public var timeout: Double
    public var family: AddressFamily
    /// `--resolve`'s entries, checked.
    public var resolveEntries: [ResolveEntry] = []
    /// An explicit proxy (`--proxy`; '' for none); nil: the environment's, as curl reads it.
    public var proxy: String? = nil
    public var startTLS: StartTLSChoice? = nil
    /// Where `https_proxy`, `http_proxy`, `no_proxy`, … are read; empty: no proxy from the environment.
    public var environment: [String: String]
    /// Where the certificates servers present are remembered (`TLSConnectOptions.certificateMemo`); nil: nowhere.
    public var certificateMemo: CertificateMemo? = nil

    public init(servername: String?, timeout: Double, family: AddressFamily, environment: [String: String]) {
        self.servername = servername
        self.timeout = timeout
        self.family = family
        self.environment = environment
    }

    /// The domain a target is checked against: the servername, or the target's host.
    public func domain(for target: Target) -> String { servername ?? target.host }

    /// The addresses `--resolve` gives for the target, in order (the first matching entry, as in curl); nil when
    /// none does. The family keeps only its own.
    public func pinnedAddresses(for target: Target) -> [SocketAddress]? {
        guard let entry = resolveEntries.first(where: { $0.covers(host: target.host, port: target.port) }) else {
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

    /// How the target is reached: the pinned addresses, the proxy for its host, the STARTTLS upgrade.
    public func route(for target: Target) throws(InputError) -> Route {
        let proxies = ProxyConfiguration(explicit: proxy, environment: environment)
        let server: ProxyServer?
        do {
            server = try proxies.proxy(forTLSHost: target.host)
        } catch {
            throw InputError(error.description)
        }
        let upgrade: StartTLSProtocol? = switch startTLS {
        case nil: nil
        case .protocolName(let name)?: name
        case .auto?: StartTLSProtocol.wellKnown(port: target.port)
        }
        return Route(addresses: pinnedAddresses(for: target), proxy: server, startTLS: upgrade)
    }

    /// The options of one plain connection to the target: SNI, time, family and route.
    public func connectOptions(for target: Target) throws(InputError) -> TLSConnectOptions {
        var options = TLSConnectOptions(serverName: domain(for: target), timeout: timeout, family: family)
        options.route = try route(for: target)
        options.certificateMemo = certificateMemo
        return options
    }

    /// The proxies for plain HTTP fetches (OCSP, CRL): the explicit one, else `http_proxy`/`all_proxy`.
    public var fetchProxies: ProxyConfiguration { ProxyConfiguration(explicit: proxy, environment: environment) }
}

/// The edges a target is split into: every address, every key type, every TLS version, each judged on its own.
public struct EdgeSettings: Sendable {
    /// Every A and AAAA address of the target (or every pinned address), each an edge.
    public var allAddresses: Bool
    /// Key types asked for, each an edge; empty: the server's choice.
    public var keyTypes: [CertificateKeyType]
    /// TLS versions offered, each an edge; empty: the client's usual offer.
    public var versions: [TLSProtocolVersion]

    public init(allAddresses: Bool = false, keyTypes: [CertificateKeyType] = [], versions: [TLSProtocolVersion] = []) {
        self.allAddresses = allAddresses
        self.keyTypes = keyTypes
        self.versions = versions
    }

    /// Whether a target becomes several edges (and each result names its edge).
    public var splitsTargets: Bool { allAddresses || !keyTypes.isEmpty || !versions.isEmpty }
}
