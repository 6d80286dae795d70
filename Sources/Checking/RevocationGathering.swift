import OpenSSLWrapper
import PolicyEngine
import Transport

/// Obtains what a revocation check needs, for the engine to judge: the staple the handshake brought, or an OCSP
/// response or CRL fetched from the URL the leaf names. Only a network failure is an error (exit 3, its own code);
/// a server that answers with something unusable is evidence, judged `ocsp-invalid`.
enum RevocationGathering {
    /// What a check of `mode` needs before anything is fetched: the evidence, when it is complete already (the
    /// staple, or why nothing can be asked), or the URLs to ask. Live and offline checks both start here, so they
    /// agree on what can be judged without asking anyone.
    enum Plan {
        case ready(RevocationEvidence)
        case fetch(RevocationEvidence, urls: [String], request: [UInt8]?, leafName: String)
    }

    static func plan(_ mode: RevocationMode, presented: [X509Certificate], staple: [UInt8]?) -> Plan {
        var evidence = RevocationEvidence(mode: mode)
        evidence.staple = staple
        guard mode == .ocsp || mode == .crl, let leaf = presented.first else { return .ready(evidence) }
        // A stapled response is the responder's own answer, relayed: asking the responder again adds nothing.
        if mode == .ocsp, staple != nil { return .ready(evidence) }
        let leafName = "certificate #0 (\(leaf.subject))"
        // The request names the issuer's key: the one the server sent. The engine checks the answer against the
        // issuer of the chain it built.
        guard let issuer = presented.dropFirst().first(where: { leaf.isIssued(by: $0) }) else {
            evidence.unavailable = "the server did not send the issuer of \(leafName), needed to ask about it"
            return .ready(evidence)
        }
        let named = mode == .ocsp ? leaf.ocspResponderURLs : leaf.crlDistributionURLs
        // RFC 5280 and 6960 fetch over plain HTTP (the document is signed); an https:// or ldap:// source would need a
        // trust decision of its own, so it is skipped.
        let urls = named.filter { $0.lowercased().hasPrefix("http://") }
        guard !urls.isEmpty else {
            let what = mode == .ocsp ? "OCSP responder" : "CRL distribution point"
            evidence.unavailable = named.isEmpty ? "\(leafName) names no \(what)"
                : "\(leafName) names no http:// \(what) (only \(named.joined(separator: ", ")))"
            return .ready(evidence)
        }
        let request = mode == .ocsp ? OCSPExchange.request(for: leaf, issuer: issuer) : nil
        guard mode == .crl || request != nil else {
            evidence.unavailable = "cannot build an OCSP request for \(leafName)"
            return .ready(evidence)
        }
        return .fetch(evidence, urls: urls, request: request, leafName: leafName)
    }

    /// The evidence for `mode`, fetched from the leaf's URLs when the plan says so; a network failure of every URL
    /// is the failure.
    static func evidence(
        _ mode: RevocationMode, presented: [X509Certificate], staple: [UInt8]?, proxies: ProxyConfiguration,
        family: AddressFamily, destination: RevocationDestination, deadline: Deadline
    ) -> Result<RevocationEvidence, EvidenceFailure> {
        switch plan(mode, presented: presented, staple: staple) {
        case .ready(let evidence):
            return .success(evidence)
        case .fetch(let evidence, let urls, let request, let leafName):
            return fetch(evidence, urls: urls, request: request, leafName: leafName, proxies: proxies, family: family,
                         destination: destination, deadline: deadline)
        }
    }

    private static func fetch(
        _ planned: RevocationEvidence, urls: [String], request: [UInt8]?, leafName: String, proxies: ProxyConfiguration,
        family: AddressFamily, destination: RevocationDestination, deadline: Deadline
    ) -> Result<RevocationEvidence, EvidenceFailure> {
        var evidence = planned
        let mode = evidence.mode
        // Each URL in turn until one answers: a responder that is down is a network failure only if none answers.
        var lastFailure: RevocationFetchFailure?
        for url in urls {
            let fetched: Result<[UInt8], RevocationFetchFailure> = switch mode {
            case .ocsp:
                RevocationFetch.ocsp(url: url, request: request ?? [], proxies: proxies, family: family,
                                     destination: destination, deadline: deadline)
            default:
                RevocationFetch.crl(url: url, proxies: proxies, family: family, destination: destination,
                                    deadline: deadline)
            }
            if case .failure(let failure) = fetched, failure.networkKind != nil {
                lastFailure = failure
                if deadline.hasPassed { break }
                continue
            }
            evidence.documents.append(RevocationDocument(
                kind: mode == .ocsp ? .ocsp : .crl, source: (mode == .ocsp ? "OCSP responder " : "CRL ") + url,
                content: fetched))
            return .success(evidence)
        }
        let failure = lastFailure ?? RevocationFetchFailure("no revocation source answered", networkKind: .refused)
        let hint = failure.refusedNonPublicDestination ? "; the checked server's certificate chose it, and pinctl does "
            + "not connect inside your network for it unless --revocation-allow-private" : ""
        let kind = failure.networkKind ?? .refused
        return .failure(EvidenceFailure(code: kind.rawValue,
                                        message: "revocation check of \(leafName): " + failure.description + hint))
    }
}

extension TargetReport {
    /// The same report with revocation evidence judged into its evaluation.
    public func applying(_ evidence: RevocationEvidence) -> TargetReport {
        var report = TargetReport(target: target, domain: domain, policy: policy,
                                  evaluation: RevocationCheck.apply(evidence, to: evaluation),
                                  extraWarnings: extraWarnings, tls: tls, app: app)
        report.edge = edge
        return report
    }
}
