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
