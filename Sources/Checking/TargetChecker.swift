import OpenSSLWrapper
import PolicyEngine
import TextSyntax
import Transport

/// Checks one target: splits it into its edges, connects to each (at once, all within the target's one timeout),
/// judges each presented chain, and gathers and applies the revocation evidence each trusted report asks for.
/// `check`, `lint` and `serve`'s `/probe` check through here, and judge a chain by the steps `OfflineChecker`
/// (`verify`) takes, so they cannot disagree.
struct TargetChecker: Sendable {
    public let connection: ConnectionSettings
    public let edges: EdgeSettings
    public let judge: Judge
    /// `--revocation`: how every trusted chain's leaf is checked; `.none` leaves it to each library.
    public var revocation: RevocationMode = .none
    /// Where revocation fetches may connect (`--revocation-allow-private`).
    package var revocationDestination = RevocationDestination(allowsPrivateAddresses: false)
    /// `--platform`: each presented chain is judged on every platform version instead of by `judge` alone, and the
    /// versions with the same verdict grouped (DESIGN §12).
    public var platforms: PlatformJudges? = nil

    /// Edges of one target checked at once; more wait for a free slot.
    public static let parallelEdges = 16

    public init(connection: ConnectionSettings, edges: EdgeSettings, judge: Judge) {
        self.connection = connection
        self.edges = edges
        self.judge = judge
    }

    /// The results of every edge, in the order address × key type × version: each edge's reports, then the errors of
    /// the apps whose evidence could not be had; or the edge's failure, once per app the target was for.
    public func check(_ target: Target) -> [TargetResult] {
        let name = target.description
        let domain = connection.domain(for: target)
        let deadline = Deadline(seconds: connection.timeout)
        var base: TLSConnectOptions
        do {
            base = try connection.connectOptions(for: target)
        } catch {
            return [.failed(FailureReport(target: name, code: "input", message: error.description))]
        }
        // With ocsp a staple saves asking the responder; a policy file's Alamofire revocation evaluator may want one
        // (.networkAccessDisabled). Asking costs a server nothing.
        base.requestsOCSPStaple = revocation == .stapled || revocation == .ocsp || judge.isPolicyFile
        // A platform version that requires Certificate Transparency counts the SCTs a server sends, as the device's
        // TLS client asks for them.
        base.requestsSCTs = platforms?.runs.contains { $0.store.certificateTransparency != nil } == true
        let planned: [Edge]
        do {
            planned = try plan(target, route: base.route, deadline: deadline)
        } catch {
            return failed(name, domain: domain, error)
        }
        let split = edges.splitsTargets
        let jobs = min(planned.count, Self.parallelEdges)
        return ConcurrentRunner.run(count: planned.count, jobs: jobs, work: { [base] index in
            var edge = planned[index]
            var options = base
            if let address = edge.address, let socket = SocketAddress(ipLiteral: address, port: target.port) {
                options.route.addresses = [socket]
            }
            options.keyType = edge.keyType
            options.version = edge.version
            let result: TLSHandshakeResult
            do throws(TLSConnectionError) {
                result = try TLSClient.handshake(host: target.host, port: target.port, options: options,
                                                 deadline: deadline)
            } catch {
                return failed(name, domain: domain, error, edge: split ? edge : nil)
            }
            if edge.address == nil, options.route.proxy == nil { edge.address = Edge.host(ofPeer: result.peerAddress) }
            // Evidence is the leaf's, whatever the store: fetched once however many platform versions ask for it.
            var gathered: [RevocationMode: Result<RevocationEvidence, EvidenceFailure>] = [:]
            let judgeOn = { (judge: Judge) -> [TargetResult] in
                ChainJudging(judge: judge, revocation: revocation).results(
                    target: name, domain: domain, presented: result.presented, tls: TLSInfo(result),
                    edge: split ? edge : nil, gather: { mode in
                        if let found = gathered[mode] { return found }
                        let found = RevocationGathering.evidence(
                            mode, presented: result.presented, staple: result.stapledOCSPResponse,
                            proxies: connection.fetchProxies, family: connection.family,
                            destination: revocationDestination, deadline: deadline)
                        gathered[mode] = found
                        return found
                    })
            }
            guard let platforms else { return judgeOn(judge) }
            return platforms.results(presented: result.presented, judgeOn) { reason in
                judge.failures(target: name, domain: domain, code: "input", message: reason).map { failure in
                    var onEdge = failure
                    onEdge.edge = split ? edge : nil
                    return TargetResult.failed(onEdge)
                }
            }
        }).flatMap { $0 }
    }

    /// Why `edge` (or the whole target) could not be judged, once per app the target was for.
    private func failed(_ target: String, domain: String, _ error: TLSConnectionError, edge: Edge? = nil)
        -> [TargetResult]
    {
        let message = edge.map { "edge \($0.label): " + error.message } ?? error.message
        let failures = judge.failures(target: target, domain: domain, code: error.kind.rawValue, message: message)
        return failures.map { failure in
            var onEdge = failure
            onEdge.edge = edge
            return .failed(onEdge)
        }
    }

    /// The edges of a target: every address (all addresses: the pinned ones, else DNS's, within the deadline)
    /// × every key type × every version; one edge with nothing chosen when the target is not split.
    private func plan(_ target: Target, route: Route, deadline: Deadline) throws(TLSConnectionError) -> [Edge] {
        var addresses: [String?] = [nil]
        if edges.allAddresses {
            var found = route.addresses ?? []
            if route.addresses == nil {
                found = try NameResolver.resolve(host: DomainName(target.host).value, port: target.port,
                                                 family: connection.family, deadline: deadline)
            }
            addresses = found.map(\.host)
        }
        let keyTypes: [CertificateKeyType?] = edges.keyTypes.isEmpty ? [nil] : edges.keyTypes
        let versions: [TLSProtocolVersion?] = edges.versions.isEmpty ? [nil] : edges.versions
        return addresses.flatMap { address in
            keyTypes.flatMap { keyType in versions.map { Edge(address: address, keyType: keyType, version: $0) } }
        }
    }
}
