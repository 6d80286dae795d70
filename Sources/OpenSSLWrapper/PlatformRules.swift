internal import COpenSSL
import FoundationEssentials

/// The rules one platform version's verifier applies beyond what every pinctl validation checks (DESIGN §12), each
/// quoted from its source where it is checked (`AppleServerPolicy`). pinctl's own rules already are Apple's for
/// names (SAN only), RSA keys (2048 bits) and digests (no SHA-1 below the anchor) on every platform.
public struct PlatformRules: Sendable {
    /// Apple's SSL server policy of iOS 13 and macOS 10.15 on (`AppleServerPolicy`); false elsewhere.
    public let appliesAppleServerPolicy: Bool
    /// Whether a trust anchor's own validity dates count. Android's PKIX validation never checks them.
    public let checksAnchorValidity: Bool
    /// The platform's store: a chain ending at one of its roots is "system-trusted" to Apple.
    public let systemRoots: TrustStore
    /// The roots a user added (`--ca-file` with a platform); Apple's user-anchored chains skip the strict EKU check.
    public let userRoots: TrustStore?
    /// Apple's CT log list where the version requires Certificate Transparency of chains to a system root
    /// (`AppleCTPolicy`); nil elsewhere.
    public let certificateTransparency: CTLogList?
    /// The SCTs the server sent in the TLS extension or an OCSP staple (a live check), which Apple counts too.
    public var sentSCTs: [[UInt8]] = []

    public init(appliesAppleServerPolicy: Bool, checksAnchorValidity: Bool, systemRoots: TrustStore,
                userRoots: TrustStore?, certificateTransparency: CTLogList? = nil) {
        self.appliesAppleServerPolicy = appliesAppleServerPolicy
        self.checksAnchorValidity = checksAnchorValidity
        self.systemRoots = systemRoots
        self.userRoots = userRoots
        self.certificateTransparency = certificateTransparency
    }

    /// What the rules say of a chain that verified to `anchor` at `time`: the first rule it breaks, as a failure
    /// with OpenSSL's code for a check the application makes (`X509_V_ERR_APPLICATION_VERIFICATION`), and what they
    /// could not decide, as warnings. The message names the rule and its source, not the version: results group
    /// versions whose verdicts are the same.
    func judge(_ chain: [X509Certificate], anchor: X509Certificate, at time: Date)
        -> (failure: VerificationFailure?, warnings: [String])
    {
        let anchoredBy = anchorSource(anchor)
        if appliesAppleServerPolicy,
           let violation = AppleServerPolicy.firstViolation(in: chain, anchoredBy: anchoredBy) {
            return (VerificationFailure(code: X509_V_ERR_APPLICATION_VERIFICATION, message: violation.message,
                                        depth: violation.depth, certificate: chain[violation.depth]), [])
        }
        // SecPolicyCheckSystemTrustedCTRequired: only a chain "anchored with root in the system anchor source but not
        // the Apple anchor source" (SecGetAppleTrustAnchors: Apple's own roots, CN=Apple Root CA[ - G2| - G3]).
        guard let logs = certificateTransparency, anchoredBy == .system, !Self.isApplesOwnRoot(anchor),
              let outcome = AppleCTPolicy.judge(chain, sent: sentSCTs, logs: logs, at: time)
        else { return (nil, []) }
        let failure = outcome.violation.map {
            VerificationFailure(code: X509_V_ERR_APPLICATION_VERIFICATION, message: $0, depth: 0,
                                certificate: chain[0])
        }
        return (failure, outcome.warnings)
    }

    private func anchorSource(_ anchor: X509Certificate) -> AppleServerPolicy.Anchor {
        if systemRoots.contains(anchor) { return .system }
        return userRoots?.contains(anchor) == true ? .user : .app
    }

    private static func isApplesOwnRoot(_ anchor: X509Certificate) -> Bool {
        ["CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US",
         "CN=Apple Root CA - G2,OU=Apple Certification Authority,O=Apple Inc.,C=US",
         "CN=Apple Root CA - G3,OU=Apple Certification Authority,O=Apple Inc.,C=US"].contains(anchor.subject)
    }

    /// The code of a failure a platform rule gives.
    public static let failureCode = X509_V_ERR_APPLICATION_VERIFICATION
}
