import FoundationEssentials
import TextSyntax

extension AFNetworkingPolicy: PortableConvertible {
    /// One exact rule per host the app talks to: AFNetworking's policy is per session, not per host.
    public func portable(losses: inout ExportLosses) throws(ExportError) -> PortablePolicy {
        guard mode != .none else { throw ExportError("an afnetworking policy in mode none pins nothing to export") }
        guard !hosts.isEmpty else {
            throw ExportError("an afnetworking policy applies to a session, not to hosts: list the app's hosts to export it")
        }
        if allowInvalidCertificates { losses.add("allowInvalidCertificates") }
        if !validatesDomainName { losses.add("validatesDomainName = false") }
        // In public-key mode a pinned certificate pins its key; in certificate mode hash pins serve nothing.
        return PortablePolicy(rules: hosts.map { host in
            PortablePolicy.Rule(domain: host, scope: .exact,
                                keyPins: mode == .publicKey ? pinnedKeyHashes : [],
                                keyCertificates: mode == .publicKey ? pinnedCertificates : [],
                                certificates: mode == .certificate ? pinnedCertificates : [])
        })
    }
}

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

extension OkHttpPolicy: PortableConvertible {
    public func portable(losses: inout ExportLosses) throws(ExportError) -> PortablePolicy {
        var rules: [PortablePolicy.Rule] = []
        for entry in entries {
            let text = entry.pattern.canonical
            let (scope, domain): (PortablePolicy.Scope, String) = text.hasPrefix("**.")
                ? (.withSubdomains, String(text.dropFirst(3)))
                : text.hasPrefix("*.") ? (.oneLabel, String(text.dropFirst(2))) : (.exact, text)
            if let index = rules.firstIndex(where: { $0.domain == domain && $0.scope == scope }) {
                rules[index].keyPins.append(entry.pin)
            } else {
                rules.append(PortablePolicy.Rule(domain: domain, scope: scope, keyPins: [entry.pin]))
            }
        }
        return PortablePolicy(rules: rules, hosts: hosts)
    }
}

extension TrustKitPolicy: PortableConvertible {
    public func portable(losses: inout ExportLosses) throws(ExportError) -> PortablePolicy {
        PortablePolicy(rules: domains.map { name, policy in
            PortablePolicy.Rule(
                domain: name, scope: policy.includeSubdomains ? .withSubdomains : .exact,
                keyPins: policy.publicKeyHashes, expiration: policy.expirationDate, enforced: policy.enforcePinning,
                excluded: policy.excludeSubdomainFromParentPolicy)
        }, hosts: hosts)
    }
}

extension NSCPolicy: PortableConvertible {
    /// Every `<domain>` with the pin set it ends up with (inherited or its own).
    public func portable(losses: inout ExportLosses) throws(ExportError) -> PortablePolicy {
        var rules: [PortablePolicy.Rule] = []
        func visit(_ config: NetworkSecurityConfig.Config, inherited: NetworkSecurityConfig.PinSet?) {
            let pinSet = config.pinSet ?? inherited
            if let anchors = config.trustAnchors, !Self.isPlatformDefault(anchors) {
                losses.add("the trust anchors of \(config.location) (only system anchors without overridePins carry over)")
            }
            for domain in config.domains {
                rules.append(PortablePolicy.Rule(
                    domain: domain.name, scope: domain.includeSubdomains ? .withSubdomains : .exact,
                    keyPins: pinSet?.pins ?? [], expiration: pinSet?.expiration,
                    excluded: pinSet?.pins.isEmpty ?? true))
            }
            for child in config.children { visit(child, inherited: pinSet) }
        }
        if let anchors = config.base?.trustAnchors, !Self.isPlatformDefault(anchors) {
            losses.add("base-config's trust anchors")
        }
        if config.debugAnchors != nil { losses.add("debug-overrides") }
        config.domainConfigs.forEach { visit($0, inherited: nil) }
        return PortablePolicy(rules: rules, hosts: hosts)
    }
}

extension NSCPolicy {
    /// `<certificates src="system"/>` alone, without overridePins: what every platform trusts anyway.
    static func isPlatformDefault(_ anchors: [NetworkSecurityConfig.CertificatesSource]) -> Bool {
        anchors.count == 1 && !anchors[0].overridePins && {
            if case .system = anchors[0].kind { return true }
            return false
        }()
    }
}
