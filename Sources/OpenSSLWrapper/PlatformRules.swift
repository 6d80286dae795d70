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

    public init(appliesAppleServerPolicy: Bool, checksAnchorValidity: Bool, systemRoots: TrustStore,
                userRoots: TrustStore?) {
        self.appliesAppleServerPolicy = appliesAppleServerPolicy
        self.checksAnchorValidity = checksAnchorValidity
        self.systemRoots = systemRoots
        self.userRoots = userRoots
    }

    /// The first rule a chain that verified to `anchor` breaks, as a failure with OpenSSL's code for a check the
    /// application makes (`X509_V_ERR_APPLICATION_VERIFICATION`); nil when it breaks none. The message names the
    /// rule and its source, not the version: results group versions whose verdicts are the same.
    func firstViolation(in chain: [X509Certificate], anchor: X509Certificate) -> VerificationFailure? {
        guard appliesAppleServerPolicy else { return nil }
        let anchoredBy: AppleServerPolicy.Anchor
        if systemRoots.contains(anchor) {
            anchoredBy = .system
        } else if userRoots?.contains(anchor) == true {
            anchoredBy = .user
        } else {
            anchoredBy = .app
        }
        guard let violation = AppleServerPolicy.firstViolation(in: chain, anchoredBy: anchoredBy) else { return nil }
        return VerificationFailure(
            code: X509_V_ERR_APPLICATION_VERIFICATION, message: violation.message,
            depth: violation.depth, certificate: chain[violation.depth])
    }

    /// The code of a failure a platform rule gives.
    public static let failureCode = X509_V_ERR_APPLICATION_VERIFICATION
}
