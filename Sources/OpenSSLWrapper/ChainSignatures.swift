internal import COpenSSL

/// The last step of OpenSSL's verification, checking every signature and validity period of the built chain, with
/// the signatures checked through `SignatureMemo`. OpenSSL lets a caller replace this step
/// (`X509_STORE_CTX_set_verify`); every other step of `X509_verify_cert` stays OpenSSL's.
///
/// This is OpenSSL 3.0's `internal_verify` (crypto/x509/x509_vfy.c) step for step, through the public API, calling
/// the verify callback with the same errors, depths and certificates in the same order. Where 3.0 reads the
/// context's fields:
/// - `ossl_x509_likely_issued(xi, xi)` is `X509_check_issued(xi, xi)`, which returns it unless it is `X509_V_OK`, and
///   then `ossl_x509_signing_allowed`, whose only results besides `X509_V_OK` are the two key usage errors;
/// - `ossl_x509_signing_allowed` and `ossl_x509_check_cert_time` are written out from `X509_get_extension_flags`,
///   `X509_get_key_usage` and `X509_cmp_time` (v3_purp.c's `ku_reject`; x509_vfy.c);
/// - `ctx->bare_ta_signed` is only ever set by DANE, which pinctl does not use;
/// - `ctx->current_issuer` has no setter in the API and is not set: nothing pinctl runs reads it.
enum ChainSignatures {
    static let verify: @convention(c) (OpaquePointer?) -> Int32 = { ctx in
        guard let ctx, let chain = X509_STORE_CTX_get0_chain(ctx), let param = X509_STORE_CTX_get0_param(ctx),
              let callback = X509_STORE_CTX_get_verify_cb(ctx) else { return -1 }
        let flags = X509_VERIFY_PARAM_get_flags(param)
        func certificate(at depth: Int32) -> OpaquePointer { COpenSSLShim_sk_X509_value(chain, depth)! }
        // verify_cb_cert: the error, its depth and certificate told to the callback; 0 ends the verification.
        func fail(_ certificate: OpaquePointer, depth: Int32, _ error: Int32) -> Bool {
            X509_STORE_CTX_set_error_depth(ctx, depth)
            X509_STORE_CTX_set_current_cert(ctx, certificate)
            X509_STORE_CTX_set_error(ctx, error)
            return callback(0, ctx) == 0
        }

        var n = COpenSSLShim_sk_X509_num(chain) - 1
        var issuer: OpaquePointer = certificate(at: n)
        var subject = issuer
        X509_STORE_CTX_set_error_depth(ctx, n)
        if !likelyIssued(issuer, issuer), flags & UInt(X509_V_FLAG_PARTIAL_CHAIN) == 0 {
            // The last certificate is not self-issued.
            if n > 0 {
                n -= 1
                X509_STORE_CTX_set_error_depth(ctx, n)
                subject = certificate(at: n)
            } else if fail(issuer, depth: 0, X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE) {
                return 0
            }
        }
        while n >= 0 {
            let issuerFlags = X509_get_extension_flags(issuer)
            if subject != issuer
                || (flags & UInt(X509_V_FLAG_CHECK_SS_SIGNATURE) != 0 && issuerFlags & UInt32(EXFLAG_SS) != 0) {
                let issuerDepth = n + (subject == issuer ? 0 : 1)
                let allowed = subject == issuer && issuerFlags & UInt32(EXFLAG_CA) == 0
                    ? X509_V_OK : signingAllowed(issuer, subject)
                if allowed != X509_V_OK, fail(issuer, depth: issuerDepth, allowed) { return 0 }
                if let key = X509_get0_pubkey(issuer) {
                    if !SignatureMemo.verifies(subject, key: key, issuer: issuer),
                       fail(subject, depth: n, X509_V_ERR_CERT_SIGNATURE_FAILURE) { return 0 }
                } else if fail(issuer, depth: issuerDepth, X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY) {
                    return 0
                }
            }
            if !checkTime(subject, depth: n, flags: flags, param: param, fail: fail) { return 0 }
            // Success at this depth; an earlier error stands.
            X509_STORE_CTX_set_current_cert(ctx, subject)
            X509_STORE_CTX_set_error_depth(ctx, n)
            if callback(1, ctx) == 0 { return 0 }
            n -= 1
            if n >= 0 {
                issuer = subject
                subject = certificate(at: n)
            }
        }
        return 1
    }

    /// `ossl_x509_likely_issued`: names, key identifiers and signature algorithm agree.
    private static func likelyIssued(_ issuer: OpaquePointer, _ subject: OpaquePointer) -> Bool {
        let result = X509_check_issued(issuer, subject)
        OpenSSLError.clearQueue()
        return [X509_V_OK, X509_V_ERR_KEYUSAGE_NO_CERTSIGN, X509_V_ERR_KEYUSAGE_NO_DIGITAL_SIGNATURE].contains(result)
    }

    /// `ossl_x509_signing_allowed`: the issuer's key usage, where it has one, allows signing certificates (a proxy
    /// certificate: digital signatures).
    private static func signingAllowed(_ issuer: OpaquePointer, _ subject: OpaquePointer) -> Int32 {
        func rejects(_ usage: Int32) -> Bool {
            X509_get_extension_flags(issuer) & UInt32(EXFLAG_KUSAGE) != 0
                && X509_get_key_usage(issuer) & UInt32(usage) == 0
        }
        if X509_get_extension_flags(subject) & UInt32(EXFLAG_PROXY) != 0 {
            return rejects(KU_DIGITAL_SIGNATURE) ? X509_V_ERR_KEYUSAGE_NO_DIGITAL_SIGNATURE : X509_V_OK
        }
        return rejects(KU_KEY_CERT_SIGN) ? X509_V_ERR_KEYUSAGE_NO_CERTSIGN : X509_V_OK
    }

    /// `ossl_x509_check_cert_time` at a depth in the chain: false ends the verification.
    private static func checkTime(
        _ certificate: OpaquePointer, depth: Int32, flags: UInt, param: OpaquePointer,
        fail: (OpaquePointer, Int32, Int32) -> Bool
    ) -> Bool {
        var time = X509_VERIFY_PARAM_get_time(param)
        let usesTime = flags & UInt(X509_V_FLAG_USE_CHECK_TIME) != 0
        if !usesTime, flags & UInt(X509_V_FLAG_NO_CHECK_TIME) != 0 { return true }
        func compare(_ bound: UnsafePointer<ASN1_TIME>?) -> Int32 {
            usesTime ? X509_cmp_time(bound, &time) : X509_cmp_time(bound, nil)
        }
        let start = compare(X509_get0_notBefore(certificate))
        if start == 0, fail(certificate, depth, X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD) { return false }
        if start > 0, fail(certificate, depth, X509_V_ERR_CERT_NOT_YET_VALID) { return false }
        let end = compare(X509_get0_notAfter(certificate))
        if end == 0, fail(certificate, depth, X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD) { return false }
        if end < 0, fail(certificate, depth, X509_V_ERR_CERT_HAS_EXPIRED) { return false }
        return true
    }
}
