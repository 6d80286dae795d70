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
