import OpenSSLWrapper
import PolicyEngine

/// Checks one target: splits it into its edges, connects to each (at once, all within the target's one
/// `--timeout`), and judges each presented chain.
struct TargetChecker: Sendable {
    let connection: ConnectionOptions
    let edges: EdgeOptions
    let judge: Judge
    /// `--revocation`: how a trusted chain's leaf is checked.
    var revocation: RevocationMode = .none
    /// Where revocation fetches may connect (`--revocation-allow-private`).
    var revocationDestination = RevocationDestination(allowsPrivateAddresses: false)

    /// Edges of one target checked at once; more wait for a free slot.
    static let parallelEdges = 16

    /// One outcome per edge, in the order address × key type × version.
    func check(_ target: Target) -> [CheckOutcome] {
        let name = target.description
        let domain = connection.domain(for: target)
        let deadline = Deadline(seconds: connection.timeout)
        let base: TLSConnectOptions
        do {
            base = try connection.connectOptions(for: target)
        } catch {
            return [.failed([FailureReport(target: name, code: "input", message: error.description)])]
        }
        let planned: [Edge]
        do {
            planned = try plan(target, route: base.route, deadline: deadline)
        } catch {
            return [failed(name, domain: domain, error)]
        }
        let split = edges.splitsTargets
        return ConcurrentRunner.run(count: planned.count, jobs: min(planned.count, Self.parallelEdges), work: { index in
            var edge = planned[index]
            var options = base
            if let address = edge.address, let socket = SocketAddress(ipLiteral: address, port: target.port) {
                options.route.addresses = [socket]
            }
            options.keyType = edge.keyType
            options.version = edge.version
            // With ocsp a staple saves asking the responder; a policy file's Alamofire revocation evaluator may want
            // one (.networkAccessDisabled). Asking costs a server nothing.
            options.requestsOCSPStaple = revocation == .stapled || revocation == .ocsp || judge.isPolicyFile
            let result: TLSHandshakeResult
            do throws(TLSConnectionError) {
                result = try TLSClient.handshake(host: target.host, port: target.port, options: options,
                                                 deadline: deadline)
            } catch {
                return failed(name, domain: domain, error, edge: split ? edge : nil)
            }
            if edge.address == nil, options.route.proxy == nil { edge.address = Edge.host(ofPeer: result.peerAddress) }
            var judgement = judge.judge(target: name, domain: domain, presented: result.presented, tls: TLSInfo(result))
            if case .reports(let reports) = judgement {
                switch checkRevocation(reports, result, deadline: deadline) {
                case .success(let checked): judgement = .reports(checked)
                case .failure(let error): return failed(name, domain: domain, error, edge: split ? edge : nil)
                }
            }
            return .judged(target: name, split ? judgement.on(edge) : judgement, edge: split ? edge : nil)
        })
    }

    /// Each trusted report with the revocation check it needs: `--revocation`'s, else the one its library asked for
    /// (Alamofire's revocation evaluator). Nothing is fetched for a chain no policy trusts, and each kind of evidence
    /// once per edge.
    private func checkRevocation(_ reports: [TargetReport], _ result: TLSHandshakeResult, deadline: Deadline)
        -> Result<[TargetReport], TLSConnectionError>
    {
        var gathered: [RevocationMode: RevocationEvidence] = [:]
        var checked: [TargetReport] = []
        for report in reports {
            let request = revocation != .none
                ? RevocationRequest(mode: revocation, requiresPositiveResponse: false)
                : report.evaluation.revocationRequest
            guard let request, request.mode != .none, report.evaluation.isTrusted else {
                checked.append(report)
                continue
            }
            var evidence: RevocationEvidence
            if let known = gathered[request.mode] {
                evidence = known
            } else {
                switch RevocationGathering.evidence(
                    request.mode, presented: result.presented, staple: result.stapledOCSPResponse,
                    proxies: connection.fetchProxies, family: connection.family, destination: revocationDestination,
                    deadline: deadline)
                {
                case .success(let found): evidence = found
                case .failure(let error): return .failure(error)
                }
                gathered[request.mode] = evidence
            }
            evidence.requiresPositiveResponse = request.requiresPositiveResponse
            checked.append(report.applying(evidence))
        }
        return .success(checked)
    }

    /// Why `edge` (or the whole target) could not be judged, once per app the target was for.
    private func failed(_ target: String, domain: String, _ error: TLSConnectionError, edge: Edge? = nil) -> CheckOutcome {
        let message = edge.map { "edge \($0.label): " + error.message } ?? error.message
        let failures = judge.failures(target: target, domain: domain, code: error.kind.rawValue, message: message)
        return .failed(failures.map { failure in
            var onEdge = failure
            onEdge.edge = edge
            return onEdge
        }, edge: edge)
    }

    /// The edges of a target: every address (`--all-addresses`: `--resolve`'s, else DNS's, within the deadline)
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
        // validate() has checked both lists.
        let keyTypes: [CertificateKeyType?] = (try? edges.keyTypes()).flatMap { $0.isEmpty ? nil : $0 } ?? [nil]
        let versions: [TLSProtocolVersion?] = (try? edges.versions()).flatMap { $0.isEmpty ? nil : $0 } ?? [nil]
        return addresses.flatMap { address in
            keyTypes.flatMap { keyType in versions.map { Edge(address: address, keyType: keyType, version: $0) } }
        }
    }
}

extension Judge.Judgement {
    /// The same judgement with every report naming its edge.
    func on(_ edge: Edge) -> Judge.Judgement {
        guard case .reports(let reports) = self else { return self }
        return .reports(reports.map { report in
            var named = report
            named.edge = edge
            return named
        })
    }
}
