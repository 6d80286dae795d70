import CertificateTime
internal import COpenSSL
import FoundationEssentials

/// OCSP (RFC 6960) with OpenSSL's own API: the request for one certificate, and the judgement of a response.
public enum OCSPExchange {
    /// The DER of an OCSPRequest for `certificate`, issued by `issuer`: one SHA-1 CertID, no nonce (responders
    /// behind caches ignore nonces, and freshness is judged by the response's dates instead).
    public static func request(for certificate: X509Certificate, issuer: X509Certificate) -> [UInt8]? {
        defer { OpenSSLError.clearQueue() }
        guard let request = OCSP_REQUEST_new() else { return nil }
        defer { OCSP_REQUEST_free(request) }
        // A new CertID (+1); OCSP_request_add0_id takes it over on success.
        guard let id = OCSP_cert_to_id(nil, certificate.pointer, issuer.pointer) else { return nil }
        guard OCSP_request_add0_id(request, id) != nil else {
            OCSP_CERTID_free(id)
            return nil
        }
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_OCSP_REQUEST(request, &buffer)
        guard length > 0, let buffer else { return nil }
        defer { COpenSSLShim_OPENSSL_free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
    }

    /// What a DER OCSPResponse says about `certificate` at `time`, or why it cannot be relied on.
    ///
    /// The signer must be `issuer` itself, or a responder `issuer` certified for OCSP signing (RFC 6960 §4.2.2.2),
    /// valid at `time`: OpenSSL's OCSP_basic_verify checks it, with `issuer` as the only anchor. `issuer` must
    /// already be trusted (it came from a validated chain); nothing else is.
    public static func judge(
        _ der: [UInt8], certificate: X509Certificate, issuer: X509Certificate, at time: Date
    ) -> RevocationOutcome {
        OpenSSLError.clearQueue()
        defer { OpenSSLError.clearQueue() }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_OCSP_RESPONSE(nil, &cursor, buffer.count)
        }
        guard let response = parsed else {
            return .invalid(.malformed(OpenSSLError.drain("parse").queue.first ?? "not a DER OCSPResponse"))
        }
        defer { OCSP_RESPONSE_free(response) }
        let status = OCSP_response_status(response)
        guard status == OCSP_RESPONSE_STATUS_SUCCESSFUL else {
            return .invalid(.errorStatus(String(cString: OCSP_response_status_str(Int(status)))))
        }
        guard let basic = OCSP_response_get1_basic(response) else {
            return .invalid(.malformed(OpenSSLError.drain("read the basic response").queue.first ?? "no basic response"))
        }
        defer { OCSP_BASICRESP_free(basic) }
        if let problem = verifySigner(basic, issuer: issuer, at: time) { return .invalid(problem) }
        guard let single = singleResponse(in: basic, for: certificate, issuer: issuer) else { return .invalid(.noStatus) }

        var reason: Int32 = -1
        var revokedAt: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        // get0: the times belong to the response.
        let certificateStatus = OCSP_single_get0_status(single, &reason, &revokedAt, &thisUpdate, &nextUpdate)
        if let problem = RevocationTime.problem(
            thisUpdate: RevocationTime.date(thisUpdate), nextUpdate: nextUpdate.flatMap { RevocationTime.date($0) },
            at: time)
        {
            return .invalid(problem)
        }
        switch certificateStatus {
        case V_OCSP_CERTSTATUS_GOOD:
            return .answer(.good)
        case V_OCSP_CERTSTATUS_REVOKED:
            return .answer(.revoked(on: RevocationTime.date(revokedAt), reason: RevocationTime.reason(Int(reason))))
        default:
            return .answer(.unknown)
        }
    }

    /// OCSP_basic_verify against a store holding only `issuer`, at `time`; nil when the signer is acceptable.
    private static func verifySigner(_ basic: OpaquePointer, issuer: X509Certificate, at time: Date)
        -> RevocationProblem?
    {
        guard let seconds = ValidationTime.timeT(time) else { return .signature("the evaluation time is out of range") }
        guard let store = X509_STORE_new() else { fatalError("X509_STORE_new: out of memory") }
        defer { X509_STORE_free(store) }
        guard let certificates = COpenSSLShim_sk_X509_new_null() else { fatalError("sk_X509_new_null: out of memory") }
        // Borrows: the stack is freed without its certificates.
        defer { COpenSSLShim_sk_X509_free(certificates) }
        // X509_STORE_add_cert takes its own reference; get0: the parameters belong to the store.
        guard X509_STORE_add_cert(store, issuer.pointer) == 1, let param = X509_STORE_get0_param(store),
            COpenSSLShim_sk_X509_push(certificates, issuer.pointer) > 0
        else { fatalError("cannot set up an OCSP verification: out of memory") }
        // The issuer is trusted as it is, CA or not; times are the evaluation time's, never the clock's.
        X509_VERIFY_PARAM_set_time(param, seconds)
        _ = X509_VERIFY_PARAM_set_flags(param, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        // OCSP_NOEXPLICIT: a signer is accepted only as the issuer or as its delegated responder, never because
        // the root above it carries OCSP-signing trust settings.
        let verified = withExtendedLifetime(issuer) {
            OCSP_basic_verify(basic, certificates, store, UInt(OCSP_NOEXPLICIT))
        }
        guard verified != 1 else { return nil }
        let reasons = OpenSSLError.drainQueue()
        return .signature("it is signed neither by \(issuer.subject) nor by a responder that issuer certified for "
            + "OCSP signing (OpenSSL: " + (reasons.isEmpty ? "OCSP_basic_verify failed" : reasons.joined(separator: "; "))
            + ")")
    }

    /// The SingleResponse about `certificate`: its CertID rebuilt with the hash the responder chose, and compared.
    private static func singleResponse(in basic: OpaquePointer, for certificate: X509Certificate,
                                       issuer: X509Certificate) -> OpaquePointer? {
        for index in 0..<OCSP_resp_count(basic) {
            // get0: the single response and its CertID belong to the basic response.
            guard let single = OCSP_resp_get0(basic, index), let id = OCSP_SINGLERESP_get0_id(single),
                let algorithm = COpenSSLShim_OCSP_CERTID_hash_algorithm(id),
                // EVP_get_digestbyobj is a macro over these three.
                let digest = EVP_get_digestbyname(OBJ_nid2sn(OBJ_obj2nid(algorithm))),
                let ours = OCSP_cert_to_id(digest, certificate.pointer, issuer.pointer)
            else { continue }
            defer { OCSP_CERTID_free(ours) }
            if OCSP_id_cmp(ours, id) == 0 { return single }
        }
        return nil
    }
}
