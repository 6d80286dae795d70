import TextSyntax

extension AlamofirePolicy: PortableConvertible {
    public func portable(losses: inout ExportLosses) throws(ExportError) -> PortablePolicy {
        var rules: [PortablePolicy.Rule] = []
        for (host, evaluator) in evaluators {
            // ServerTrustManager (Source/Features/ServerTrustEvaluation.swift) looks the host up exactly:
            //     open func serverTrustEvaluator(forHost host: String) throws -> (any ServerTrustEvaluating)? {
            //         guard let evaluator = evaluators[host] else {
            // so a `*` in a key is a literal character and a key with a port names no host: such an evaluator never
            // applies, and written as another library's rule (`*.example.com` is OkHttp's wildcard) it would pin hosts
            // the app does not.
            if host.contains("*") || (host.contains(":") && (host.hasPrefix("[") || !DomainName(host).isIPAddress)) {
                let why = host.contains("*") ? "its * is a literal character, not a wildcard" : "no host has a port"
                losses.add("the evaluator of \(host), which applies to no host (Alamofire looks hosts up exactly: "
                    + "\(why))")
                continue
            }
            rules.append(try rule(host, evaluator, &losses))
        }
        if !allHostsMustBeEvaluated { losses.add("allHostsMustBeEvaluated = false") }
        return PortablePolicy(rules: rules, hosts: hosts)
    }

    private func rule(_ host: String, _ evaluator: AlamofireEvaluator, _ losses: inout ExportLosses)
        throws(ExportError) -> PortablePolicy.Rule
    {
        switch evaluator {
        case .pinnedCertificates(let certificates, let acceptSelfSigned, let performDefault, let validateHost):
            if acceptSelfSigned { losses.add("acceptSelfSignedCertificates (the pinned certificates as the only anchors)") }
            if !performDefault || !validateHost { losses.add("performDefaultValidation or validateHost turned off") }
            return PortablePolicy.Rule(domain: host, scope: .exact, certificates: certificates)
        case .publicKeys(let certificates, let performDefault, let validateHost):
            if !performDefault || !validateHost { losses.add("performDefaultValidation or validateHost turned off") }
            return PortablePolicy.Rule(domain: host, scope: .exact, keyCertificates: certificates)
        case .standard, .disabled, .revocation:
            losses.add("the \(evaluator.kind) evaluator of \(host), which pins nothing")
            return PortablePolicy.Rule(domain: host, scope: .exact, excluded: true)
        case .composite(let inner):
            losses.add("the composite evaluator of \(host) (its pinning evaluators are merged)")
            var merged = PortablePolicy.Rule(domain: host, scope: .exact)
            for evaluator in inner {
                let part = try rule(host, evaluator, &losses)
                merged.keyPins += part.keyPins
                merged.keyCertificates += part.keyCertificates
                merged.certificates += part.certificates
            }
            return merged
        }
    }
}
