import FoundationEssentials
import OpenSSLWrapper
import TextSyntax

/// The rules one platform version's verifier applies beyond what every pinctl validation checks (DESIGN §12), each
/// quoted from its source where it is checked (`AppleServerPolicy`, `AppleCTPolicy`). pinctl's own rules already are
/// Apple's for names (SAN only), RSA keys (2048 bits) and digests (no SHA-1 below the anchor) on every platform. The
/// verifier is handed them as a `PathRule` and applies them to every path it builds.
public struct PlatformRules: PathRule {
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

    /// What the rules say of a chain that verified to `anchor` at `time`: the first rule it breaks, and what they
    /// could not decide, as warnings. The message names the rule and its source, not the version: results group
    /// versions whose verdicts are the same.
    public func judge(_ chain: [X509Certificate], anchor: X509Certificate, at time: Date) -> PathRuling {
        let anchoredBy = anchorSource(anchor)
        if appliesAppleServerPolicy,
           let violation = AppleServerPolicy.firstViolation(in: chain, anchoredBy: anchoredBy) {
            return PathRuling(refusal: (violation.depth, violation.message))
        }
        // SecPolicyCheckSystemTrustedCTRequired: only a chain "anchored with root in the system anchor source but not
        // the Apple anchor source" (SecGetAppleTrustAnchors: Apple's own roots, CN=Apple Root CA[ - G2| - G3]).
        guard let logs = certificateTransparency, anchoredBy == .system, !Self.isApplesOwnRoot(anchor),
              let outcome = AppleCTPolicy.judge(chain, sent: sentSCTs, logs: logs, at: time)
        else { return PathRuling() }
        return PathRuling(refusal: outcome.violation.map { (0, $0) }, warnings: outcome.warnings)
    }

    /// What of the rules reaches a verification; nil for rules whose verdict may differ on the same chain and store:
    /// roots not all listed. Certificate Transparency reads the log list and the SCTs the server sent, so both are in
    /// the key (by their SHA-256), and its verdict changes with time as the logs' states do, so a verification is
    /// reused only at the same time (`memoRequiresSameTime`).
    public var memoKey: String? {
        guard let system = systemRoots.contents else { return nil }
        var user = "none"
        if let userRoots {
            guard let listed = userRoots.contents else { return nil }
            user = listed.key
        }
        var ct = "none"
        if let certificateTransparency {
            // Each SCT length-prefixed, so no two lists of SCTs run into the same bytes.
            let sent = sentSCTs.flatMap { sct in withUnsafeBytes(of: UInt32(sct.count).bigEndian, Array.init) + sct }
            ct = "list \(Hex.lower(certificateTransparency.contentDigest)) sent "
                + Hex.lower(DigestAlgorithm.sha256.digest(sent))
        }
        // The user roots' key is last, so the system roots' length-prefixed origin cannot run into it.
        return ["apple \(appliesAppleServerPolicy)", "anchor dates \(checksAnchorValidity)", "ct \(ct)",
                "system \(system.key)", "user \(user)"].joined(separator: "\n")
    }

    public var memoRequiresSameTime: Bool { certificateTransparency != nil }

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
    public static let failureCode = VerificationFailure.pathRuleCode
}
