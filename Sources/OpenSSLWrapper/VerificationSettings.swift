import CertificateTime
internal import COpenSSL
import FoundationEssentials
import Glibc
import TextSyntax

/// DESIGN §2's OpenSSL settings for every validation, applied to one context's `X509_VERIFY_PARAM`.
enum VerificationSettings {
    /// Apple's TLS policy in OpenSSL's terms: RSA keys of 2048 bits or more, EC keys of 224 or more, and no
    /// signature below the anchor with a digest under 112 bits of security (SHA-1, MD5).
    static let authenticationLevel: Int32 = 2

    /// Names come from the SAN only, never the CN (as Apple requires), and a `*` must be a whole label. Set on every
    /// run, with or without a name to check: OpenSSL also reads the CN for name constraints unless told never to.
    static let hostFlags = UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT | X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS)

    /// Applies the settings; returns what could not be applied, in words, or nil when all were.
    ///
    /// A setting that fails must fail the evaluation: going on would verify without it (an unchecked name, the
    /// wall clock), which is how a verifier fails open.
    static func apply(_ options: VerificationOptions, to param: OpaquePointer) -> String? {
        let flags = UInt(X509_V_FLAG_X509_STRICT) | UInt(X509_V_FLAG_PARTIAL_CHAIN)
        guard X509_VERIFY_PARAM_set_flags(param, flags) == 1 else {
            return "OpenSSL refused the verification flags (X509_STRICT, PARTIAL_CHAIN): nothing was verified"
        }
        X509_VERIFY_PARAM_set_auth_level(param, authenticationLevel)
        // An anchor's trust settings (a `TRUSTED CERTIFICATE` block) are read for TLS servers. OpenSSL's default
        // asks for anyExtendedKeyUsage, so a root trusted for serverAuth alone was rejected (error 28); one trusted
        // for other uses only, or rejecting serverAuth, still is. Anchors without trust settings are unaffected.
        guard X509_VERIFY_PARAM_set_trust(param, X509_TRUST_SSL_SERVER) == 1 else {
            return "OpenSSL refused the trust setting (SSL server): nothing was verified"
        }
        X509_VERIFY_PARAM_set_hostflags(param, hostFlags)
        guard let time = ValidationTime.timeT(options.time) else {
            return "the evaluation time (\(options.time.timeIntervalSince1970) seconds since 1970) is outside the "
                + "years 0001 to 9999 that certificates can express: nothing was verified"
        }
        X509_VERIFY_PARAM_set_time(param, time)
        guard let domain = options.hostName else { return nil }
        return setName(DomainName(domain), on: param)
    }

    private static func setName(_ name: DomainName, on param: OpaquePointer) -> String? {
        // Quoted the way Swift prints string literals, so a control character in the name cannot reach a terminal.
        let quoted = String(reflecting: name.value)
        guard !name.value.isEmpty else {
            // OpenSSL takes an empty name as "check no name": that would leave the leaf's name unchecked.
            return "the domain to check is empty: no name was checked, so nothing is trusted"
        }
        if name.isIPAddress {
            guard X509_VERIFY_PARAM_set1_ip_asc(param, name.value) == 1 else {
                OpenSSLError.clearQueue()
                return "OpenSSL refused the IP address \(quoted) (X509_VERIFY_PARAM_set1_ip_asc): it cannot be "
                    + "checked, so nothing is trusted"
            }
            return nil
        }
        // The length is passed so that OpenSSL sees every byte: from a C string it would stop at an embedded NUL and
        // check a shorter name than the one asked for; with the length it refuses such a name.
        let bytes = Array(name.value.utf8)
        let accepted = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { X509_VERIFY_PARAM_set1_host(param, $0.baseAddress, $0.count) }
        }
        guard accepted == 1 else {
            OpenSSLError.clearQueue()
            return "OpenSSL refused the host name \(quoted) (X509_VERIFY_PARAM_set1_host): it cannot be checked, "
                + "so nothing is trusted"
        }
        return nil
    }
}
