internal import COpenSSL

extension X509Certificate {
    /// The OCSP responders its authorityInfoAccess names, in order.
    public var ocspResponderURLs: [String] {
        // get1: a new stack of new strings, freed with X509_email_free (OpenSSL's free for this stack).
        guard let stack = X509_get1_ocsp(pointer) else {
            OpenSSLError.clearQueue()
            return []
        }
        defer { X509_email_free(stack) }
        return (0..<COpenSSLShim_sk_OPENSSL_STRING_num(stack)).compactMap { index in
            COpenSSLShim_sk_OPENSSL_STRING_value(stack, index).map { String(cString: $0) }
        }
    }

    /// The URIs of its CRL distribution points' full names, in order.
    public var crlDistributionURLs: [String] {
        // get1-style: X509_get_ext_d2i returns a new CRL_DIST_POINTS that we free.
        guard let raw = X509_get_ext_d2i(pointer, NID_crl_distribution_points, nil, nil) else {
            OpenSSLError.clearQueue()
            return []
        }
        let points = OpaquePointer(raw)
        defer { CRL_DIST_POINTS_free(points) }
        var urls: [String] = []
        for index in 0..<COpenSSLShim_sk_DIST_POINT_num(points) {
            // get0: the point and its names belong to the stack.
            guard let point = COpenSSLShim_sk_DIST_POINT_value(points, index),
                let names = COpenSSLShim_DIST_POINT_fullname(point)
            else { continue }
            for nameIndex in 0..<COpenSSLShim_sk_GENERAL_NAME_num(names) {
                guard let name = COpenSSLShim_sk_GENERAL_NAME_value(names, nameIndex), name.pointee.type == GEN_URI
                else { continue }
                urls.append(Self.asciiString(name.pointee.d.uniformResourceIdentifier))
            }
        }
        return urls
    }

    /// Whether `candidate` issued this certificate: names and key identifiers match and its key verifies the
    /// signature.
    public func isIssued(by candidate: X509Certificate) -> Bool {
        defer { OpenSSLError.clearQueue() }
        guard X509_check_issued(candidate.pointer, pointer) == X509_V_OK,
            let key = X509_get0_pubkey(candidate.pointer)
        else { return false }
        // get0 above: the key belongs to the candidate.
        return X509_verify(pointer, key) == 1
    }
}
