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
