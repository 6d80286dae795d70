/// How a connection reaches its target before the TLS handshake: which addresses, through which proxy, after which
/// STARTTLS upgrade.
public struct Route: Sendable {
    /// The addresses to connect to in turn (`--resolve`, or the one address of an edge); nil resolves the host, or,
    /// through a proxy, lets the proxy resolve it.
    public var addresses: [SocketAddress]?
    /// The HTTP proxy to tunnel through with CONNECT; nil connects directly.
    public var proxy: ProxyServer?
    /// The plain-text protocol to upgrade from; nil starts TLS at once.
    public var startTLS: StartTLSProtocol?

    public init(addresses: [SocketAddress]? = nil, proxy: ProxyServer? = nil, startTLS: StartTLSProtocol? = nil) {
        self.addresses = addresses
        self.proxy = proxy
        self.startTLS = startTLS
    }
}

/// Opens the connection a TLS handshake runs on, every step within one deadline.
package enum Connector {
    /// Resolves and connects (directly, or through the route's proxy), then runs the route's STARTTLS upgrade; the
    /// socket returned is ready for the ClientHello. `domain` is the name a protocol announces (XMPP's `to`).
    package static func open(
        host: String, port: UInt16, route: Route, family: AddressFamily, domain: String?, deadline: Deadline,
        lookup: @escaping NameResolver.Lookup
    ) throws(TLSConnectionError) -> TCPConnection {
        let target = TargetName(host: host, port: port)
        let stream: SocketStream?
        let connection: TCPConnection
        if let proxy = route.proxy {
            let tunnel = try tunnel(to: target, addresses: route.addresses, through: proxy, family: family,
                                    deadline: deadline, lookup: lookup)
            (stream, connection) = (tunnel, tunnel.connection)
        } else {
            let addresses: [SocketAddress]
            if let fixed = route.addresses {
                addresses = fixed
            } else {
                addresses = try NameResolver.resolve(
                    host: host, port: port, family: family, deadline: deadline, lookup: lookup)
            }
            connection = try TCPConnection.connect(to: addresses, target: target, deadline: deadline)
            stream = nil
        }
        guard let upgrade = route.startTLS else {
            if let stream, !stream.pending.isEmpty {
                throw TLSConnectionError(.notTLS, "not a TLS server at \(target): it spoke first, through "
                    + "\(route.proxy.map(\.description) ?? "the proxy"), sending \(PeerText.quote(stream.pending))")
            }
            return connection
        }
        let dialogue = StartTLSDialogue(stream: stream ?? SocketStream(connection, deadline: deadline), target: target,
                                        protocolName: upgrade.displayName, deadline: deadline)
        switch upgrade {
        case .smtp: try dialogue.smtp(clientName: connection.localAddressLiteral)
        case .imap: try dialogue.imap()
        case .pop3: try dialogue.pop3()
        case .ftp: try dialogue.ftp()
        case .xmpp: try dialogue.xmpp(domain: domain ?? host)
        case .postgres: try dialogue.postgres()
        case .ldap: try dialogue.ldap()
        }
        try dialogue.expectNothingPending()
        return connection
    }

    /// Connects to the proxy and asks it for a tunnel to the target: by name, or to each fixed address in turn
    /// until one is granted. Every failure on the way is a `.proxy` error naming the proxy.
    private static func tunnel(
        to target: TargetName, addresses: [SocketAddress]?, through proxy: ProxyServer, family: AddressFamily,
        deadline: Deadline, lookup: @escaping NameResolver.Lookup
    ) throws(TLSConnectionError) -> SocketStream {
        let proxyTarget = TargetName(host: proxy.host, port: proxy.port)
        let proxyAddresses: [SocketAddress]
        do {
            proxyAddresses = try NameResolver.resolve(
                host: proxy.host, port: proxy.port, family: family, deadline: deadline, lookup: lookup)
        } catch {
            throw TLSConnectionError(.proxy, "cannot reach \(proxy): \(error.message)")
        }
        let destinations = addresses.map { $0.map { TargetName(host: $0.host, port: target.port) } } ?? [target]
        var lastFailure = TLSConnectionError(.proxy, "\(proxy): no address to ask it for")
        for destination in destinations {
            let connection: TCPConnection
            do {
                connection = try TCPConnection.connect(to: proxyAddresses, target: proxyTarget, deadline: deadline)
            } catch {
                throw TLSConnectionError(.proxy, "cannot reach \(proxy): \(error.message)")
            }
            let stream = SocketStream(connection, deadline: deadline)
            do {
                try ProxyTunnel.open(to: destination, through: proxy, on: stream, deadline: deadline)
                return stream
            } catch {
                lastFailure = error
                if deadline.hasPassed { break }
            }
        }
        throw lastFailure
    }
}
