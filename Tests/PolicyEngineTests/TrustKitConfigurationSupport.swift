import Foundation
import PolicyEngine
import TestSupport
import Testing

/// A TrustKit configuration as the tests write expectations by hand: each domain as one line,
/// `[PIN, PIN] subdomains report-only expires 2027-06-30`, or `excluded`.
enum TKSummary {
    static func line(_ pins: [String], subdomains: Bool = false, enforce: Bool = true, expires: String? = nil)
        -> String
    {
        var text = "[\(pins.joined(separator: ", "))]"
        if subdomains { text += " subdomains" }
        if !enforce { text += " report-only" }
        if let expires { text += " expires \(expires)" }
        return text
    }

    static let excluded = "excluded"

    static func of(_ policy: TrustKitPolicy) -> [String: String] {
        var lines: [String: String] = [:]
        for (name, domain) in policy.domains {
            lines[name] = domain.excludeSubdomainFromParentPolicy ? excluded : line(
                domain.publicKeyHashes.map { Data($0.hash).base64EncodedString() },
                subdomains: domain.includeSubdomains, enforce: domain.enforcePinning,
                expires: domain.expirationDate.map { Timestamp.day($0) })
        }
        return lines
    }

    /// The shop app of Tests/Fixtures/trustkit/ (Info.plist and its other shapes), pins from spki-pins.txt.
    static let shopApp: [String: String] = [
        "api.example.com": line([pin("leaf.pem"), pin("leaf-rekeyed.pem")]),
        "example.com": line([pin("intermediate-ca.pem"), pin("other-intermediate-ca.pem")], subdomains: true,
                            expires: "2027-06-30"),
        "status.example.com": excluded,
        "cdn.example.com": line([pin("other-root-ca.pem")], enforce: false, expires: "2026-05-01"),
    ]

    static func pin(_ file: String) -> String { LibraryCerts.bareBase64(of: file) }
}

/// Reads a TrustKit configuration file, failing the test with the error when it is refused.
func readTrustKit(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> (policy: TrustKitPolicy, notes: [String])
{
    do {
        return try TrustKitConfigurationReader.read(path, hosts: [])
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        throw error
    }
}

/// The error reading `path` gives; a file that is read fails the test.
func trustKitRefusal(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> ConfigurationError? {
    do {
        let (policy, _) = try TrustKitConfigurationReader.read(path, hosts: [])
        Issue.record("read, though it should be refused: \(TKSummary.of(policy))", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
