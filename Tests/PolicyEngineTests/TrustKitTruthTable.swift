import Foundation
import PolicyEngine
import TestSupport
import Testing

/// One `TSKPinnedDomains` entry as a row writes it: pins are fixture files of certs/libraries/ (their SPKI pins from
/// spki-pins.txt) or `X` and `Y`, two 32-byte hashes no certificate has.
struct TKDomain: Sendable, CustomStringConvertible {
    let name: String
    var pins: [String] = []
    var includeSubdomains = false
    var exclude = false
    var enforce = true
    /// `TSKExpirationDate` as seconds since 1970 of 00:00 UTC of that day.
    var expires: TimeInterval?

    static func pinned(_ name: String, _ pins: [String], subdomains: Bool = false, enforce: Bool = true,
                       expires: TimeInterval? = nil) -> TKDomain {
        TKDomain(name: name, pins: pins, includeSubdomains: subdomains, enforce: enforce, expires: expires)
    }

    static func excluded(_ name: String) -> TKDomain { TKDomain(name: name, exclude: true) }

    var policy: TrustKitDomainPolicy {
        TrustKitDomainPolicy(
            publicKeyHashes: pins.map(TKPins.pin), includeSubdomains: includeSubdomains,
            excludeSubdomainFromParentPolicy: exclude, enforcePinning: enforce,
            expirationDate: expires.map { Date(timeIntervalSince1970: $0) })
    }

    var entry: (name: String, policy: TrustKitDomainPolicy) { (name, policy) }

    var description: String {
        if exclude { return "\(name) excluded" }
        var flags = includeSubdomains ? " +subdomains" : ""
        if !enforce { flags += " report-only" }
        if let expires { flags += " expires @\(Int(expires))" }
        return "\(name) [\(pins.joined(separator: ", "))]\(flags)"
    }
}

/// The pins rows name, decoded with Foundation from the openssl CLI's catalogue: never from the code under test.
enum TKPins {
    static let x = String(repeating: "A", count: 43) + "="
    static let y = String(repeating: "B", count: 43) + "="

    static func base64(_ name: String) -> String {
        switch name {
        case "X": x
        case "Y": y
        default: LibraryCerts.bareBase64(of: name)
        }
    }

    static func pin(_ name: String) -> PublicKeyPin {
        guard let bytes = Data(base64Encoded: base64(name)) else { fatalError("pin \(name) is not base64") }
        return PublicKeyPin(hash: [UInt8](bytes), source: PinSource(name))
    }
}

/// Days of the expiry rows, as seconds since 1970 at 00:00 UTC (`date -u -d 2026-01-01 +%s`).
enum TKDay {
    static let jan1 = 1_767_225_600.0
    static let may31 = 1_780_185_600.0
    static let jun1 = 1_780_272_000.0
}

/// The chains the rows present, leaf first, as files of certs/libraries/.
enum TKChain {
    /// Leaf (api, www and example.com) and its intermediate; the store adds root-ca as #2.
    static let leaf = ["leaf.pem", "intermediate-ca.pem"]
    /// *.example.com and *.api.example.com; root-ca is #2.
    static let wildcard = ["wildcard-leaf.pem", "intermediate-ca.pem"]
    /// An EC P-521 leaf, which TrustKit cannot hash; root-ca is #2.
    static let p521 = ["leaf-p521.pem", "intermediate-ca.pem"]
    static let rsa2048 = ["leaf-rsa2048.pem", "intermediate-ca.pem"]
    /// Under other-root-ca, which is not in the store: OpenSSL error 20 at depth 1.
    static let otherRoot = ["leaf-other-root.pem", "other-root-intermediate-ca.pem"]
    /// The leaf without its intermediate: error 20 at depth 0.
    static let leafAlone = ["leaf.pem"]
    /// A valid chain plus a root that does not connect to it (#2); the store's root-ca ends the chain as #3.
    static let strayRoot = ["leaf.pem", "intermediate-ca.pem", "other-root-ca.pem"]
}

/// One row: a configuration, a host, a chain, a time, and what TrustKit does.
struct TKRow: Sendable, CustomTestStringConvertible {
    let rule: String
    let domains: [TKDomain]
    let host: String?
    let chain: [String]
    /// Seconds after TestTime.now (2026-06-01T00:00:00Z).
    var after: TimeInterval = 0
    let expected: ExpectedVerdict
    /// A warning the evaluation must carry, besides the failed-open one.
    var warning: String?

    init(_ rule: String, _ domains: [TKDomain], host: String?, _ chain: [String], after: TimeInterval = 0,
         _ expected: ExpectedVerdict, warning: String? = nil) {
        self.rule = rule
        self.domains = domains
        self.host = host
        self.chain = chain
        self.after = after
        self.expected = expected
        self.warning = warning
    }

    var testDescription: String {
        "\(rule): \(domains.map(\.description).joined(separator: "; ")), host \(host ?? "none") → \(expected)"
    }
}
