import Foundation
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// A key of the library PKI (certs/libraries/), pinned by the openssl CLI's pins in spki-pins.txt.
enum OkHttpKey: String, Sendable {
    case leaf = "leaf.pem"
    case intermediate = "intermediate-ca.pem"
    case root = "root-ca.pem"
    case wildcard = "wildcard-leaf.pem"
    case clientAuth = "client-auth-leaf.pem"
    case otherRootLeaf = "leaf-other-root.pem"
    /// In no chain of the table: a pin that never matches.
    case rekeyed = "leaf-rekeyed.pem"
    case otherRoot = "other-root-ca.pem"
}

/// A pin as an app writes it in `CertificatePinner.Builder().add(pattern, pin)`.
enum OkHttpPinText: Sendable, CustomStringConvertible {
    case sha256(OkHttpKey)
    case sha1(OkHttpKey)
    /// Written by hand.
    case written(String)

    var text: String {
        switch self {
        case .sha256(let key): LibraryCerts.pin(of: key.rawValue)
        case .sha1(let key): LibraryCerts.sha1Pin(of: key.rawValue)
        case .written(let text): text
        }
    }

    var description: String {
        switch self {
        case .sha256(let key): "sha256(\(key))"
        case .sha1(let key): "sha1(\(key))"
        case .written(let text): text.debugDescription
        }
    }
}

/// What the server presents, leaf first.
enum OkHttpChain: String, Sendable {
    /// leaf (SANs api.example.com, www.example.com, example.com) and intermediate-ca; root-ca is the store's.
    case leaf = "leaf-chain.pem"
    /// wildcard-leaf (SANs *.example.com, *.api.example.com) and intermediate-ca.
    case wildcard = "wildcard-leaf-chain.pem"
    /// The leaf without its intermediate.
    case leafAlone = "leaf.pem"
    /// A leaf under other-root-ca, which the store does not hold.
    case otherRoot = "leaf-other-root-chain.pem"
    /// A leaf whose EKU is clientAuth only, and intermediate-ca.
    case clientAuth = "client-auth-leaf.pem"

    var presented: [X509Certificate] {
        self == .clientAuth
            ? [LibraryCerts.one(rawValue), LibraryCerts.one("intermediate-ca.pem")] : LibraryCerts.load(rawValue)
    }
}

/// One row: `add(pattern, pins…)` calls in order, a chain, a host, OkHttp's verdict and the warning it deserves.
struct OkHttpRow: Sendable, CustomTestStringConvertible {
    let rule: String
    let adds: [(pattern: String, pins: [OkHttpPinText])]
    let chain: OkHttpChain
    let host: String?
    let verdict: ExpectedVerdict
    /// A fragment some warning holds; nil: no warning at all.
    let warning: String?

    init(_ rule: String, _ adds: [(String, [OkHttpPinText])], on chain: OkHttpChain = .leaf,
         host: String? = "api.example.com", _ verdict: ExpectedVerdict, warning: String? = nil) {
        self.rule = rule
        self.adds = adds.map { (pattern: $0.0, pins: $0.1) }
        self.chain = chain
        self.host = host
        self.verdict = verdict
        self.warning = warning
    }

    var testDescription: String {
        let adds = adds.map { "add(\($0.pattern), \($0.pins.map(\.description).joined(separator: ", ")))" }
        return "\(rule): \(adds.joined(separator: " ")) \(chain.rawValue) for \(host ?? "no host") → \(verdict)"
    }

    /// The policy the app's builder makes; a pattern or pin OkHttp refuses fails the test.
    func policy() throws -> OkHttpPolicy {
        var entries: [OkHttpPolicy.Entry] = []
        for (index, add) in adds.enumerated() {
            let pattern = try OkHttpPattern(add.pattern)
            for pin in add.pins {
                let source = PinSource(.file(path: "add #\(index + 1)", line: nil, entry: nil))
                entries.append(.init(pattern: pattern, pin: try OkHttpPin.parse(pin.text, source: source)))
            }
        }
        return OkHttpPolicy(entries: entries)
    }
}

/// Evaluates `policy` on `presented` for `host` with root-ca.pem standing for the system store at TestTime.now.
func evaluateOkHttp(_ policy: OkHttpPolicy, _ presented: [X509Certificate], host: String?) -> Evaluation {
    let context = EvaluationContext(platformAnchors: LibraryCerts.store(), time: TestTime.now)
    return PolicyEvaluator(context: context).evaluate(policy, presented: presented, domain: host)
}
