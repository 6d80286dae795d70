internal import COpenSSL
import Foundation

/// The inputs of one `X509_STORE_CTX` run besides the certificates.
public struct VerificationOptions: Sendable {
    /// The evaluation time; never the clock inside the verifier. Outside `ValidationTime` the run fails.
    public var time: Date
    /// A DNS name or IP literal the leaf must carry in its subject alternative names; nil checks no name.
    public var domain: String?
    /// Whether the leaf must be fit for TLS server use and carry `domain` (AFSecurityPolicy's validatesDomainName).
    public var checksServerIdentity: Bool

    public init(time: Date, domain: String?, checksServerIdentity: Bool) {
        self.time = time
        self.domain = domain
        self.checksServerIdentity = checksServerIdentity
    }
}

/// The first complaint about a chain: which check, at which depth, on which certificate.
public struct VerificationFailure: Sendable, Equatable {
    /// The `X509_V_ERR_*` code; pinctl's own checks use the code of OpenSSL's nearest check.
    public let code: Int32
    /// What is wrong, in words: OpenSSL's text for the code (e.g. "certificate has expired"), or a sentence of
    /// pinctl's where OpenSSL's says too little (e.g. "RSA key of 1024 bits; at least 2048 are required").
    public let message: String
    /// 0 for the leaf.
    public let depth: Int
    /// The certificate at fault; nil when no certificate is (a setting OpenSSL refused) or when it is a trust store
    /// entry that cannot be read (then `subject` names it).
    public let certificate: X509Certificate?
    /// The subject of the certificate at fault, also when `certificate` could not be read back from the store.
    public let subject: String?

    public init(code: Int32, message: String, depth: Int, certificate: X509Certificate?, subject: String? = nil) {
        self.code = code
        self.message = message
        self.depth = depth
        self.certificate = certificate
        self.subject = subject ?? certificate?.subject
    }

    public static let expired = X509_V_ERR_CERT_HAS_EXPIRED
    public static let notYetValid = X509_V_ERR_CERT_NOT_YET_VALID
    public static let hostnameMismatch = X509_V_ERR_HOSTNAME_MISMATCH
    public static let ipAddressMismatch = X509_V_ERR_IP_ADDRESS_MISMATCH
    public static let invalidPurpose = X509_V_ERR_INVALID_PURPOSE

    /// The chain stops because no anchor issued its top certificate (errors 2, 18, 19, 20).
    public var isMissingIssuer: Bool {
        [X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
         X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN].contains(code)
    }

    /// No certificate is at fault: the evaluation itself could not be set up, so nothing was verified.
    public var isSettingFailure: Bool { certificate == nil && subject == nil }
}

/// The chain OpenSSL built, leaf first, and its first failure, if any.
public struct ChainVerification: Sendable {
    /// As far as OpenSSL got: complete to an anchor when `failure` is nil. Trust store entries that cannot be read
    /// back are left out (see `warnings`).
    public let chain: [X509Certificate]
    public let failure: VerificationFailure?
    /// What the run met that does not change its outcome but a person should know: unreadable store entries.
    public let warnings: [String]

    public var isValid: Bool { failure == nil }
}
