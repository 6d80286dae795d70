internal import COpenSSL

/// Wildcard DNS names against the DNS subtrees a CA excludes: the case OpenSSL 3.0 leaves out (CVE-2025-61727's).
///
/// OpenSSL compares a SAN with an excluded subtree as a plain name: `*.example.com` is "inside" `example.com`,
/// so that exclusion holds, but it is not inside `test.example.com`, though as a wildcard it covers
/// test.example.com. A CA that excludes test.example.com must not let a leaf claim `*.example.com`.
package enum WildcardExclusion {
    /// The first wildcard DNS SAN of `chain` (leaf first) that reaches into a DNS subtree excluded by a CA above it,
    /// the anchor included (OpenSSL applies an anchor's name constraints too).
    static func firstViolation(in chain: [OpaquePointer]) -> ChainViolation? {
        for (caDepth, ca) in chain.enumerated().dropFirst() {
            let excluded = excludedDNSSubtrees(of: ca)
            guard !excluded.isEmpty else { continue }
            for depth in 0..<caDepth {
                let wildcards = X509Certificate.alternativeNames(of: chain[depth])
                    .filter { $0.hasPrefix("DNS:*.") }
                    .map { String($0.dropFirst(4)) }
                for wildcard in wildcards {
                    guard let subtree = excluded.first(where: { reaches(wildcard: wildcard, into: $0) }) else {
                        continue
                    }
                    let message = "the wildcard DNS:\(wildcard) covers names in the DNS subtree \(subtree), which "
                        + "\(X509Certificate.subject(of: ca)) excludes (name constraints)"
                    return ChainViolation(certificate: chain[depth], depth: depth, message: message)
                }
            }
        }
        return nil
    }

    /// Whether `*.base` can match a name of the excluded DNS subtree `subtree` (OpenSSL's reading of a subtree: the
    /// name and every name below it; with a leading dot, only the names below it). Case-insensitive.
    package static func reaches(wildcard: String, into subtree: String) -> Bool {
        let wildcard = wildcard.lowercased()
        let subtree = subtree.lowercased()
        guard wildcard.hasPrefix("*.") else { return false }
        // The wildcard stands for exactly one label in front of base.
        let base = String(wildcard.dropFirst(2))
        if subtree.isEmpty { return true }
        if subtree.hasPrefix(".") {
            // Only names below the subtree's name: one label in front of base is below it iff base is it or below it.
            let parent = String(subtree.dropFirst())
            return base == parent || base.hasSuffix("." + parent)
        }
        // Every name the wildcard matches lies inside (OpenSSL catches this case itself).
        if base == subtree || base.hasSuffix("." + subtree) { return true }
        // The subtree's own name is one label in front of base: the wildcard matches it.
        guard subtree.hasSuffix("." + base) else { return false }
        let label = subtree.dropLast(base.count + 1)
        return !label.isEmpty && !label.contains(".")
    }

    /// The excluded DNS subtrees of a CA's NameConstraints, read with OpenSSL's decoder.
    private static func excludedDNSSubtrees(of x509: OpaquePointer) -> [String] {
        // A new NAME_CONSTRAINTS that we free. nil also when the extension appears twice; OpenSSL then marks the
        // certificate invalid and fails the chain itself.
        guard let raw = X509_get_ext_d2i(x509, NID_name_constraints, nil, nil) else {
            ERR_clear_error()
            return []
        }
        let constraints = raw.assumingMemoryBound(to: NAME_CONSTRAINTS.self)
        defer { NAME_CONSTRAINTS_free(constraints) }
        guard let excluded = constraints.pointee.excludedSubtrees else { return [] }
        var names: [String] = []
        for index in 0..<COpenSSLShim_sk_GENERAL_SUBTREE_num(excluded) {
            guard let subtree = COpenSSLShim_sk_GENERAL_SUBTREE_value(excluded, index),
                let base = subtree.pointee.base, base.pointee.type == GEN_DNS
            else { continue }
            names.append(X509Certificate.asciiString(base.pointee.d.dNSName))
        }
        return names
    }
}
