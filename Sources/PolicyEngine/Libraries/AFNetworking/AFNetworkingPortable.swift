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
