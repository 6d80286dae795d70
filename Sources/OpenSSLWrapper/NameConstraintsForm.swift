internal import COpenSSL

/// The form RFC 5280 §4.2.1.10 gives name constraints, which OpenSSL 3.0 does not check: it applies whatever
/// constraints a certificate carries, so a chain whose constraints are malformed verifies, and pinctl said "trusted"
/// where strict verifiers refuse (x509-limbo's `rfc5280::nc` and `webpki::nc` cases). A malformed constraint is
/// refused rather than read one way: a device may read it another.
enum NameConstraintsForm {
    /// The first certificate of `chain` (leaf first) whose name constraints, or whose names under constraints, are
    /// not in the form RFC 5280 gives them.
    static func firstViolation(in chain: [OpaquePointer]) -> ChainViolation? {
        var constrained = false
        for (depth, certificate) in chain.enumerated().reversed() {
            let index = X509_get_ext_by_NID(certificate, NID_name_constraints, -1)
            if index >= 0 {
                constrained = true
                if let problem = problem(of: certificate, extensionAt: index, isLeaf: depth == 0) {
                    return ChainViolation(certificate: certificate, depth: depth, message: problem)
                }
            }
            // "the name MUST be located within at least one of the permitted subtrees": a malformed name lies in
            // none, whatever OpenSSL's comparison says.
            if constrained, depth == 0, let malformed = X509Certificate.alternativeNames(of: certificate)
                .first(where: { $0.hasPrefix("DNS:") && !isDNSName(String($0.dropFirst(4))) }) {
                return ChainViolation(
                    certificate: certificate, depth: depth,
                    message: "the subject alternative name \(malformed) is not a DNS name, so it is within no "
                        + "subtree of the name constraints above it (RFC 5280 §4.2.1.10)")
            }
        }
        return nil
    }

    private static func problem(of certificate: OpaquePointer, extensionAt index: Int32, isLeaf: Bool) -> String? {
        // "The name constraints extension, which MUST be used only in a CA certificate".
        if isLeaf || X509_check_ca(certificate) == 0 {
            return "name constraints in a certificate that is not a CA (RFC 5280 §4.2.1.10: only a CA certificate "
                + "may carry them)"
        }
        // "Conforming CAs MUST mark this extension as critical".
        if let ext = X509_get_ext(certificate, index), X509_EXTENSION_get_critical(ext) == 0 {
            return "name constraints not marked critical (RFC 5280 §4.2.1.10: conforming CAs MUST mark them critical)"
        }
        guard let raw = X509_get_ext_d2i(certificate, NID_name_constraints, nil, nil) else {
            ERR_clear_error()
            return nil  // twice, or undecodable: OpenSSL refuses the certificate itself
        }
        let constraints = raw.assumingMemoryBound(to: NAME_CONSTRAINTS.self)
        defer { NAME_CONSTRAINTS_free(constraints) }
        let permitted = constraints.pointee.permittedSubtrees
        let excluded = constraints.pointee.excludedSubtrees
        // "either the permittedSubtrees field or the excludedSubtrees MUST be present", each SIZE (1..MAX).
        if permitted.map(COpenSSLShim_sk_GENERAL_SUBTREE_num) ?? 0 == 0,
           excluded.map(COpenSSLShim_sk_GENERAL_SUBTREE_num) ?? 0 == 0 {
            return "name constraints with neither permitted nor excluded subtrees (RFC 5280 §4.2.1.10: one MUST be "
                + "present, and not empty)"
        }
        for subtrees in [permitted, excluded].compactMap({ $0 }) {
            for position in 0..<COpenSSLShim_sk_GENERAL_SUBTREE_num(subtrees) {
                guard let subtree = COpenSSLShim_sk_GENERAL_SUBTREE_value(subtrees, position),
                      let base = subtree.pointee.base, base.pointee.type == GEN_DNS else { continue }
                let name = X509Certificate.asciiString(base.pointee.d.dNSName)
                // A leading period is the form of URI and e-mail constraints; a DNS constraint is a host name, and
                // OpenSSL reads ".example.com" as "below example.com", which no standard says.
                if name.hasPrefix(".") {
                    return "the DNS name constraint \(name) has a leading period (RFC 5280 §4.2.1.10 gives that form "
                        + "to URI and e-mail constraints only)"
                }
            }
        }
        return nil
    }

    /// Labels of letters, digits, hyphens and underscores (and a leading `*.`), none empty.
    private static func isDNSName(_ name: String) -> Bool {
        let body = name.hasPrefix("*.") ? String(name.dropFirst(2)) : name
        guard !body.isEmpty, !body.hasSuffix(".") || body.count > 1 else { return false }
        let labels = (body.hasSuffix(".") ? String(body.dropLast()) : body).split(separator: ".",
                                                                                  omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F
            }
        }
    }
}
