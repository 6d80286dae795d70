import FoundationEssentials
import OpenSSLWrapper

/// Apple's SSL server policy as iOS 13 and macOS 10.15 and later apply it (Apple HT210176, "Requirements for trusted
/// certificates in iOS 13 and macOS 10.15"; HT211025, "About upcoming limits on trusted certificates"), read from
/// Apple's Security sources, which win where the articles say less: `SecPolicyCreateSSLWithKeyUsage` (SecPolicy.c)
/// adds, for a server, `kSecPolicyCheckKeySize` (RSA 2048, EC 256), `kSecPolicyCheckValidityPeriodMaximums` and
/// `kSecPolicyCheckServerAuthEKU`, which SecPolicyServer.c checks as below. Names only from the SAN and no SHA-1 are
/// pinctl's rules on every platform already.
enum AppleServerPolicy {
    /// Where the chain's anchor came from, which decides how strict the checks are.
    enum Anchor {
        /// A root of the platform's store (Security: `kSecSystemAnchorSource`).
        case system
        /// A root the user added (`kSecUserAnchorSource`): `--ca-file` with a platform.
        case user
        /// Anything else: anchors the app sets (`SecTrustSetAnchorCertificates`), e.g. pinned certificates.
        case app
    }

    struct Violation {
        let depth: Int
        let message: String
    }

    static func firstViolation(in chain: [X509Certificate], anchoredBy anchor: Anchor) -> Violation? {
        serverAuthUsage(chain, anchor) ?? keySize(chain) ?? validityPeriod(chain[0], anchor)
    }

    private static let serverAuth = "id-kp-serverAuth (1.3.6.1.5.5.7.3.1)"

    /// `SecPolicyCheckServerAuthEKU`: "all system-anchored chains must be compliant": the leaf's EKU holds
    /// serverAuth (anyExtendedKeyUsage does not do), and "if any subCA cert has an EKU, it must have the server auth
    /// EKU" or anyExtendedKeyUsage. User-anchored chains are skipped; "all other anchor types must be compliant if
    /// issued on or after 1 July 2019" (the leaf only).
    private static func serverAuthUsage(_ chain: [X509Certificate], _ anchor: Anchor) -> Violation? {
        let leaf = chain[0]
        switch anchor {
        case .user:
            return nil
        case .app:
            guard leaf.notBefore > julyFirst2019, !hasServerAuth(leaf) else { return nil }
            return Violation(depth: 0, message: "the leaf, issued after 1 July 2019, has no extended key usage "
                + "\(serverAuth) (Apple's TLS server policy, HT210176; Security SecPolicyCheckServerAuthEKU)")
        case .system:
            if !hasServerAuth(leaf) {
                return Violation(depth: 0, message: "the leaf has no extended key usage \(serverAuth), which every "
                    + "chain to a system root must carry (Apple's TLS server policy, HT210176; Security "
                    + "SecPolicyCheckServerAuthEKU)")
            }
            for depth in chain.indices.dropFirst().dropLast() {
                guard let usage = chain[depth].extendedKeyUsage, !usage.serverAuth, !usage.any else { continue }
                return Violation(depth: depth, message: "certificate #\(depth), an intermediate, limits its extended "
                    + "key usage to purposes without \(serverAuth) or anyExtendedKeyUsage, which a chain to a system "
                    + "root may not (Apple's TLS server policy; Security SecPolicyCheckServerAuthEKU)")
            }
            return nil
        }
    }

    /// The EKU extension is there and lists serverAuth itself (Security's `SecPolicyCheckCertExtendedKeyUsage` with
    /// the one OID: a certificate without the extension does not match).
    private static func hasServerAuth(_ certificate: X509Certificate) -> Bool {
        certificate.extendedKeyUsage?.serverAuth == true
    }

    /// `SecPolicyAddStrongKeySizeOptions`: "RSA key sizes are 2048-bit or larger. EC key sizes are P-256 or larger",
    /// for every certificate of the path (`SecPolicyCheckKeySize`), the root included. pinctl's authentication level
    /// already asks RSA 2048 of every certificate; EC keys it lets down to 224 bits.
    private static func keySize(_ chain: [X509Certificate]) -> Violation? {
        for (depth, certificate) in chain.enumerated() {
            guard let bits = certificate.ecKeyBits, bits < 256 else { continue }
            return Violation(depth: depth, message: "certificate #\(depth) has an EC key of \(bits) bits; Apple's TLS "
                + "server policy asks P-256 or larger (Security SecPolicyAddStrongKeySizeOptions)")
        }
        return nil
    }

    private static let julyFirst2016 = Date(timeIntervalSince1970: 1_467_331_200)
    private static let marchFirst2018 = Date(timeIntervalSince1970: 1_519_862_400)
    private static let julyFirst2019 = Date(timeIntervalSince1970: 1_561_939_200)
    private static let septemberFirst2020 = Date(timeIntervalSince1970: 1_598_918_400)
    private static let day: Double = 86_400
    private static let hour: Double = 3_600

    /// `SecPolicyCheckValidityPeriodMaximums`, on the leaf's validity period (notAfter − notBefore). For a chain to
    /// a system root (`SecPolicyCheckSystemTrustValidityPeriodMaximums`): issued before 1 July 2016, 60 months ("5
    /// years and 2 leap days (and 1 hour slip)"); before 1 March 2018, 39 months; before 1 September 2020, 825 days
    /// and an hour; from then, 398 days "and no slip" (HT211025). For any other chain
    /// (`SecPolicyCheckOtherTrustValidityPeriodMaximums`): issued after 1 July 2019, 825 days and an hour. Apple skips
    /// the check only when the leaf is itself a user anchor, which a chain pinctl judges never is.
    private static func validityPeriod(_ leaf: X509Certificate, _ anchor: Anchor) -> Violation? {
        let period = leaf.notAfter.timeIntervalSince(leaf.notBefore)
        let issued = leaf.notBefore
        let limit: (seconds: Double, words: String)?
        if anchor == .system {
            if issued < julyFirst2016 {
                limit = (day * (365 * 5 + 2) + hour, "60 months for a certificate issued before 1 July 2016")
            } else if issued < marchFirst2018 {
                limit = (day * (365 * 3 + 2 * 31 + 30 + 1) + hour,
                         "39 months for a certificate issued before 1 March 2018")
            } else if issued < septemberFirst2020 {
                limit = (day * 825 + hour, "825 days for a certificate issued before 1 September 2020")
            } else {
                limit = (day * 398, "398 days for a certificate issued from 1 September 2020 (HT211025)")
            }
        } else {
            limit = issued > julyFirst2019
                ? (day * 825 + hour, "825 days for a certificate issued after 1 July 2019 (HT210176)") : nil
        }
        guard let limit, period > limit.seconds else { return nil }
        let days = (period / day * 100).rounded() / 100
        let whose = anchor == .system ? "a chain to a system root" : "a chain to any root"
        return Violation(depth: 0, message: "the leaf is valid for \(days.dayCountText) days, longer than the "
            + "\(limit.words) that Apple allows \(whose) (Security SecPolicyCheckValidityPeriodMaximums)")
    }
}

extension Double {
    /// 398, 825.04: no trailing zeros, no exponent.
    fileprivate var dayCountText: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
