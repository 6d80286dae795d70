extension ATSPolicy: PortableConvertible {
    /// One rule per entry that pins, and one more for its subdomains with `NSIncludesSubdomains` (one label below:
    /// OkHttp's `*.`). Which certificate a pin may match, and that both kinds must match, are ATS's alone.
    public func portable(losses: inout ExportLosses) throws(ExportError) -> PortablePolicy {
        var rules: [PortablePolicy.Rule] = []
        for domain in domains where domain.leafIdentities != nil || domain.caIdentities != nil {
            let leaf = domain.leafIdentities ?? []
            let ca = domain.caIdentities ?? []
            if domain.leafIdentities?.isEmpty == true || domain.caIdentities?.isEmpty == true {
                throw ExportError("\(domain.name) has an identity list with nothing usable in it, so iOS rejects every "
                    + "chain for it: no other library can say that")
            }
            if !leaf.isEmpty { losses.add("NSPinnedLeafIdentities of \(domain.name) match the leaf only") }
            if !ca.isEmpty { losses.add("NSPinnedCAIdentities of \(domain.name) never match the leaf") }
            if !leaf.isEmpty, !ca.isEmpty {
                losses.add("\(domain.name) needs a leaf identity and a CA identity to match, not either")
            }
            let pins = leaf + ca.filter { !leaf.contains($0) }
            rules.append(PortablePolicy.Rule(domain: domain.name, scope: .exact, keyPins: pins))
            if domain.includesSubdomains {
                rules.append(PortablePolicy.Rule(domain: domain.name, scope: .oneLabel, keyPins: pins))
            }
        }
        return PortablePolicy(rules: rules, hosts: hosts)
    }
}
