internal import COpenSSL
import FoundationEssentials

/// The inputs of one `X509_STORE_CTX` run besides the certificates.
public struct VerificationOptions: Sendable {
    /// The evaluation time; never the clock inside the verifier. Outside `ValidationTime` the run fails.
    public var time: Date
    /// Whether the leaf must be fit for TLS server use: its key usage and extended key usage (Apple's SSL policy,
    /// with or without a host name).
    public var checksServerUsage: Bool
    /// A DNS name or IP literal the leaf must carry in its subject alternative names; nil checks no name.
    public var hostName: String?
    /// Whether the trust anchor's own validity dates count. They do on Apple's platforms and in OpenSSL; Android's
    /// PKIX validation never checks a trust anchor's dates, so an expired root in its store still anchors.
    public var checksAnchorValidity: Bool
    /// The rules of the platform version judged on (DESIGN §12), applied to a chain that verified; nil: none.
    public var pathRule: (any PathRule)?

    public init(time: Date, checksServerUsage: Bool, hostName: String?, checksAnchorValidity: Bool = true,
                pathRule: (any PathRule)? = nil) {
        self.time = time
        self.checksServerUsage = checksServerUsage
        self.hostName = hostName
        self.checksAnchorValidity = checksAnchorValidity && pathRule?.checksAnchorValidity != false
        self.pathRule = pathRule
    }

    /// What decides a verification besides the time and the platform rules: every other field above, and a field
    /// added there must be added here, or `VerificationMemo` would reuse a verification made with another value.
    struct Checks: Hashable {
        let checksServerUsage: Bool
        let hostName: String?
        let checksAnchorValidity: Bool
    }

    var checks: Checks {
        Checks(checksServerUsage: checksServerUsage, hostName: hostName, checksAnchorValidity: checksAnchorValidity)
    }

    /// AFSecurityPolicy's validatesDomainName: server usage and the name together, or neither.
    public init(time: Date, domain: String?, checksServerIdentity: Bool) {
        self.init(time: time, checksServerUsage: checksServerIdentity, hostName: checksServerIdentity ? domain : nil)
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

/// A path tried and refused: the chain as far as OpenSSL got, and why it failed.
public struct RefusedPath: Sendable {
    public let chain: [X509Certificate]
    public let failure: VerificationFailure

    public init(chain: [X509Certificate], failure: VerificationFailure) {
        self.chain = chain
        self.failure = failure
    }
}

/// The chain OpenSSL built, leaf first, and its first failure, if any.
public struct ChainVerification: Sendable {
    /// As far as OpenSSL got: complete to an anchor when `failure` is nil. Trust store entries that cannot be read
    /// back are left out (see `warnings`).
    public let chain: [X509Certificate]
    public let failure: VerificationFailure?
    /// What the run met that does not change its outcome but a person should know: unreadable store entries.
    public let warnings: [String]
    /// The trust anchor that ends `chain`: its last certificate when it came from the store, nil when the chain stops
    /// short of one.
    public let anchor: X509Certificate?
    /// The other paths tried and refused, in the order tried (DESIGN §12). When `chain` verified and this is not
    /// empty, `chain` is not the path OpenSSL built: that one comes first here. When `failure` is set, `chain` is
    /// OpenSSL's path and these are the others that failed too.
    public let refusedPaths: [RefusedPath]
    /// The search for other paths stopped at its deadline rather than its end: the same search may end elsewhere
    /// another time, so this result is never remembered (`VerificationMemo`).
    var searchCutShort = false

    public init(
        chain: [X509Certificate], failure: VerificationFailure?, warnings: [String], anchor: X509Certificate?,
        refusedPaths: [RefusedPath] = []
    ) {
        self.chain = chain
        self.failure = failure
        self.warnings = warnings
        self.anchor = anchor
        self.refusedPaths = refusedPaths
    }

    public var isValid: Bool { failure == nil }
}
