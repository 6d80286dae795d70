import Foundation
import PolicyEngine
import TestSupport
import Testing

/// The chains of Alamofire's truth table, from certs/libraries/ (README.md there), as a server presents them; the
/// store is root-ca.pem (`LibraryCerts.store()`). Indices in the expected values are into `Evaluation.chain`: the
/// presented certificates, then a certificate the store added (root-ca.pem is #2 after a two-certificate chain).
enum AlamofireChain: String, Sendable {
    case valid = "[leaf, intermediate]"
    case fullChain = "[leaf, intermediate, root]"
    case missingIntermediate = "[leaf, root]: the intermediate is missing"
    case wrongIntermediate = "[leaf, other intermediate]: the wrong intermediate"
    case otherRoot = "[leaf, intermediate] under other-root-ca, not in the store"
    case selfSigned = "[self-signed]"
    case expired = "[leaf, intermediate] in 2125: every certificate has expired"
    case underExpiredRoot = "[leaf, expired-root-ca]: an expired self-signed root, not in the store"
    case clientAuth = "[clientAuth-only leaf, intermediate]"
    case noSAN = "[leaf without SAN, intermediate]"
    case wildcard = "[*.example.com leaf, intermediate]"
    case p521 = "[P-521 leaf, intermediate]"

    var files: [String] {
        switch self {
        case .valid, .expired: ["leaf.pem", "intermediate-ca.pem"]
        case .fullChain: ["leaf.pem", "intermediate-ca.pem", "root-ca.pem"]
        case .missingIntermediate: ["leaf.pem", "root-ca.pem"]
        case .wrongIntermediate: ["leaf.pem", "other-intermediate-ca.pem"]
        case .otherRoot: ["leaf-other-root.pem", "other-root-intermediate-ca.pem"]
        case .selfSigned: ["self-signed.pem"]
        case .underExpiredRoot: ["leaf-under-expired-root.pem", "expired-root-ca.pem"]
        case .clientAuth: ["client-auth-leaf.pem", "intermediate-ca.pem"]
        case .noSAN: ["no-san-leaf.pem", "intermediate-ca.pem"]
        case .wildcard: ["wildcard-leaf.pem", "intermediate-ca.pem"]
        case .p521: ["leaf-p521.pem", "intermediate-ca.pem"]
        }
    }

    /// 2026-06-01, or 2125-06-01 (after every fixture's notAfter of 2125-01-01) for the expired chain.
    var time: Date { self == .expired ? AlamofireHosts.late : TestTime.now }
}

enum AlamofireHosts {
    /// In the SANs of every leaf but no-san-leaf.pem.
    static let api = "api.example.com"
    /// In no leaf's SANs.
    static let other = "other.example.net"
    /// 2125-06-01T00:00:00Z (`date -u -d 2125-06-01 +%s`).
    static let late = Date(timeIntervalSince1970: 4_904_409_600)
}

/// An evaluator as the table writes it: certificate files by name, so a row reads as what it tests.
indirect enum AlamofireSpec: Sendable, CustomStringConvertible {
    case standard(validateHost: Bool)
    case pinned([String], acceptSelfSigned: Bool, defaultValidation: Bool, validateHost: Bool)
    case keys([String], defaultValidation: Bool, validateHost: Bool)
    case disabled
    case composite([AlamofireSpec])

    static func pinned(_ files: [String]) -> AlamofireSpec {
        .pinned(files, acceptSelfSigned: false, defaultValidation: true, validateHost: true)
    }

    static func selfSignedAccepted(_ files: [String]) -> AlamofireSpec {
        .pinned(files, acceptSelfSigned: true, defaultValidation: true, validateHost: true)
    }

    static func keys(_ files: [String]) -> AlamofireSpec { .keys(files, defaultValidation: true, validateHost: true) }

    static let standard = AlamofireSpec.standard(validateHost: true)

    var evaluator: AlamofireEvaluator {
        switch self {
        case .standard(let validateHost): .standard(validateHost: validateHost)
        case .pinned(let files, let acceptSelfSigned, let defaultValidation, let validateHost):
            .pinnedCertificates(files.map(alamofirePin), acceptSelfSignedCertificates: acceptSelfSigned,
                                performDefaultValidation: defaultValidation, validateHost: validateHost)
        case .keys(let files, let defaultValidation, let validateHost):
            .publicKeys(files.map(alamofirePin), performDefaultValidation: defaultValidation,
                        validateHost: validateHost)
        case .disabled: .disabled
        case .composite(let inner): .composite(inner.map(\.evaluator))
        }
    }

    var description: String {
        switch self {
        case .standard(let validateHost): "default(validateHost \(validateHost))"
        case .pinned(let files, let acceptSelfSigned, let defaultValidation, let validateHost):
            "pinned-certificates(\(files.joined(separator: ", ")); acceptSelfSigned \(acceptSelfSigned), "
                + "defaultValidation \(defaultValidation), validateHost \(validateHost))"
        case .keys(let files, let defaultValidation, let validateHost):
            "public-keys(\(files.joined(separator: ", ")); defaultValidation \(defaultValidation), "
                + "validateHost \(validateHost))"
        case .disabled: "disabled"
        case .composite(let inner): "composite[" + inner.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

/// A fixture of certs/libraries/ pinned under its own name.
func alamofirePin(_ file: String) -> PinnedCertificate {
    PinnedCertificate(certificate: LibraryCerts.one(file), source: PinSource(file))
}

/// Alamofire's rejections as its table writes them, by hand from Alamofire 5.12's source
/// (notes/libraries/alamofire.md).
extension ExpectedVerdict {
    static func untrusted(_ index: Int) -> Self { .rejected("untrusted-chain", at: index) }
    static func expired(_ index: Int) -> Self { .rejected("expired", at: index) }
    static func mismatch(_ index: Int) -> Self { .rejected("hostname-mismatch", at: index) }
    static func notServer(_ index: Int) -> Self { .rejected("not-for-tls-server", at: index) }
    static let pinNotInChain = Self.rejected("pin-not-in-chain")
    static let keyNotPinned = Self.rejected("public-key-not-pinned")
    static let noPins = Self.rejected("no-pins")
    static let noEvaluator = Self.rejected("no-evaluator")
}

/// Evaluates `policy` on a chain of the table against the store standing for the system's.
func evaluateAlamofire(_ policy: AlamofirePolicy, _ chain: AlamofireChain, host: String?) -> Evaluation {
    let context = EvaluationContext(platformAnchors: LibraryCerts.store(), time: chain.time)
    return PolicyEvaluator(context: context).evaluate(policy, presented: chain.files.flatMap(LibraryCerts.load),
                                                      domain: host)
}
