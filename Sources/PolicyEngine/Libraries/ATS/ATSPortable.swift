extension ATSPolicy: PortableConvertible {
    /// One rule per entry that pins, and one more for its subdomains with `NSIncludesSubdomains` (one label below:
    /// OkHttp's `*.`). Which certificate a pin may match, and that a host pinned by both kinds needs a match of each
    /// (the entries that apply are pooled, so a leaf list and a CA list of two entries both count), are ATS's alone.
    public func portable(losses: inout ExportLosses) throws(ExportError) -> PortablePolicy {
        var rules: [PortablePolicy.Rule] = []
        let pinning = domains.filter { $0.leafIdentities != nil || $0.caIdentities != nil }
        for domain in pinning {
            let leaf = domain.leafIdentities ?? []
            let ca = domain.caIdentities ?? []
            if domain.leafIdentities?.isEmpty == true || domain.caIdentities?.isEmpty == true {
                throw ExportError("\(domain.name) has an identity list with nothing usable in it, so iOS rejects every "
                    + "chain for it: no other library can say that")
            }
            if !leaf.isEmpty { losses.add("NSPinnedLeafIdentities of \(domain.name) match the leaf only") }
            if !ca.isEmpty { losses.add("NSPinnedCAIdentities of \(domain.name) never match the leaf") }
            let pins = leaf + ca.filter { !leaf.contains($0) }
            rules.append(PortablePolicy.Rule(domain: domain.name, scope: .exact, keyPins: pins))
            if domain.includesSubdomains {
                rules.append(PortablePolicy.Rule(domain: domain.name, scope: .oneLabel, keyPins: pins))
            }
        }
        for withLeaf in pinning where withLeaf.leafIdentities != nil {
            for withCA in pinning where withCA.caIdentities != nil && Self.overlap(withLeaf, withCA) {
                losses.add(withLeaf.name == withCA.name
                    ? "\(withLeaf.name) needs a leaf identity and a CA identity to match, not either"
                    : "a host pinned by \(withLeaf.name)'s leaf identities and \(withCA.name)'s CA identities needs a "
                        + "match of each, not either")
            }
        }
        return PortablePolicy(rules: rules, hosts: hosts)
    }

    /// Whether some host is covered by both entries: the same name, or one is the other's parent with
    /// `NSIncludesSubdomains`.
    private static func overlap(_ one: ATSPinnedDomain, _ other: ATSPinnedDomain) -> Bool {
        one.applies(to: ATSPinnedDomain.matchedHost(other.name))
            || other.applies(to: ATSPinnedDomain.matchedHost(one.name))
    }
}
