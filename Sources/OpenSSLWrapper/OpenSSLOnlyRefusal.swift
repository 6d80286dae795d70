internal import COpenSSL

/// Errors OpenSSL 3.0 reports that neither RFC 5280's path validation nor the platforms pinctl judges for (Apple,
/// Android, browsers) count as failures: the verify callback lets them pass. Each would be a false "rejected", never
/// a false "trusted" avoided, because every platform accepts what it refuses.
enum OpenSSLOnlyRefusal {
    /// Whether OpenSSL's error `code` on `certificate`, in the run of `context`, is one of them.
    static func contains(code: Int32, certificate: OpaquePointer?, context: OpaquePointer) -> Bool {
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return expiresAtEvaluationTime(certificate, context)
        case X509_V_ERR_CA_CERT_MISSING_KEY_USAGE:
            // X509_STRICT (3.0) turns RFC 5280 §4.2.1.3's rule for issuing CAs ("Conforming CAs MUST include this
            // extension") into a path failure. Validation checks keyCertSign only where the extension is present
            // (§6.1.4 (n): "If a key usage extension is present, verify that the keyCertSign bit is set"), as
            // OpenSSL still does; Apple checks key usage on the leaf alone, Android's PKIX KeyChecker only a
            // present extension, and old roots without one are trusted on every platform.
            return true
        default:
            return false
        }
    }

    /// A certificate is valid through the second of its notAfter: RFC 5280 §4.1.2.5 ("the period of time from
    /// notBefore through notAfter, inclusive"), Apple's `SecCertificateIsValid` (`verifyTime <= notAfter`), Java's
    /// `X509Certificate.checkValidity` on Android (expired only after notAfter), pinctl's own expiry check
    /// (`Evaluation`). OpenSSL 3.0's `X509_cmp_time` calls that second expired. Any later time is expired for all.
    private static func expiresAtEvaluationTime(_ certificate: OpaquePointer?, _ context: OpaquePointer) -> Bool {
        // get0: the parameters belong to the context, the notAfter to the certificate.
        guard let certificate, let param = X509_STORE_CTX_get0_param(context),
              let notAfter = X509_get0_notAfter(certificate) else { return false }
        // set_time also sets X509_V_FLAG_USE_CHECK_TIME, which every run does (VerificationSettings).
        let equal = ASN1_TIME_cmp_time_t(notAfter, X509_VERIFY_PARAM_get_time(param)) == 0
        OpenSSLError.clearQueue()
        return equal
    }
}
