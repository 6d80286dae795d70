import Foundation
import Testing
import TestSupport

/// A `library: trustkit` app in a policy file that TrustKit would refuse at launch, and where pinctl must point.
struct TrustKitFileCase: Sendable, CustomTestStringConvertible {
    let rule: String
    /// The lines under `domains:` (each indented 8 spaces), from line 7 of the file; nil writes `domains: {}`.
    let domains: [String]?
    let line: Int
    let keyPath: String
    let fragment: String

    init(_ rule: String, _ domains: [String]?, _ line: Int = 0, _ keyPath: String = "", _ fragment: String = "") {
        self.rule = rule
        self.domains = domains
        self.line = line
        self.keyPath = "apps[0].policy.domains" + keyPath
        self.fragment = fragment
    }

    var testDescription: String { rule }

    /// The whole file: `domains:` is on line 6.
    var text: String {
        let head = ["version: 1", "apps:", "  - name: ios", "    library: trustkit", "    policy:"]
        guard let domains else { return (head + ["      domains: {}"]).joined(separator: "\n") + "\n" }
        return (head + ["      domains:"] + domains.map { "        " + $0 }).joined(separator: "\n") + "\n"
    }
}

private let x = String(repeating: "A", count: 43) + "="
private let y = String(repeating: "B", count: 43) + "="
/// The same 32 bytes as `x`: the last character's two unused bits differ, which Foundation's decoder ignores.
private let xAgain = String(repeating: "A", count: 42) + "B="

private let short = String(repeating: "A", count: 27) + "="
private let pair = "[\(x), \(y)]"

/// Columns: rule, the lines under `domains:`, the line at fault, its key path under `apps[0].policy.domains`, and
/// words of the message.
private let trustKitFileCases: [TrustKitFileCase] = [
    TrustKitFileCase("no domains", nil, 6, "", "no pinned domains"),
    TrustKitFileCase("one pin, enforced", ["api.example.com:", "  publicKeyHashes: [\(x)]"],
                     8, "['api.example.com'].publicKeyHashes", "TrustKit requires at least 2"),
    TrustKitFileCase("one pin spelled twice", ["api.example.com:", "  publicKeyHashes: [\(x), \(xAgain)]"],
                     8, "['api.example.com'].publicKeyHashes", "1 distinct pin(s)"),
    TrustKitFileCase("no pin, report-only", ["api.example.com:", "  enforcePinning: false"],
                     8, "['api.example.com']", "TrustKit requires at least 1"),
    TrustKitFileCase("a hash with its sha256/ prefix", ["api.example.com:", "  publicKeyHashes: [\(y), sha256/\(x)]"],
                     8, "['api.example.com'].publicKeyHashes[1]", "base64 of 32 bytes"),
    TrustKitFileCase("a hash of 20 bytes", ["api.example.com:", "  publicKeyHashes:", "    - \(x)", "    - \(short)"],
                     10, "['api.example.com'].publicKeyHashes[1]", "base64 of 32 bytes"),
    TrustKitFileCase("a hash without its padding", ["api.example.com:", "  publicKeyHashes: [\(y), \(x.dropLast())]"],
                     8, "['api.example.com'].publicKeyHashes[1]", "base64 of 32 bytes"),
    TrustKitFileCase("localhost", ["localhost:", "  publicKeyHashes: \(pair)"],
                     8, ".localhost", "no known public suffix"),
    TrustKitFileCase("an IP address", ["10.0.0.1:", "  publicKeyHashes: \(pair)"],
                     8, "['10.0.0.1']", "no known public suffix"),
    TrustKitFileCase(".internal", ["x.internal:", "  publicKeyHashes: \(pair)"],
                     8, "['x.internal']", "no known public suffix"),
    TrustKitFileCase("includeSubdomains on com", ["com:", "  includeSubdomains: true", "  publicKeyHashes: \(pair)"],
                     8, ".com.includeSubdomains", "com, a public suffix"),
    TrustKitFileCase("includeSubdomains on co.uk",
                     ["co.uk:", "  publicKeyHashes: \(pair)", "  includeSubdomains: true"],
                     9, "['co.uk'].includeSubdomains", "co.uk, a public suffix"),
    TrustKitFileCase("includeSubdomains on github.io",
                     ["github.io:", "  includeSubdomains: true", "  publicKeyHashes: \(pair)"],
                     8, "['github.io'].includeSubdomains", "github.io, a public suffix"),
    TrustKitFileCase("an exclusion with another key",
                     ["example.com:", "  includeSubdomains: true", "  publicKeyHashes: \(pair)",
                      "api.example.com:", "  excludeSubdomainFromParentPolicy: true", "  enforcePinning: false"],
                     11, "['api.example.com'].excludeSubdomainFromParentPolicy",
                     "may hold no other key, but api.example.com also has enforcePinning"),
    TrustKitFileCase("an exclusion without a parent",
                     ["example.com:", "  publicKeyHashes: \(pair)",
                      "api.example.com:", "  excludeSubdomainFromParentPolicy: true"],
                     10, "['api.example.com'].excludeSubdomainFromParentPolicy",
                     "no domain with includeSubdomains covers it"),
    TrustKitFileCase("an expiration date that is not yyyy-MM-dd",
                     ["api.example.com:", "  publicKeyHashes: \(pair)", "  expirationDate: 2026/06/01"],
                     9, "['api.example.com'].expirationDate", "yyyy-MM-dd"),
]


/// End-to-end: `pinctl verify --config` with a TrustKit app, run in certs/libraries/.
@Suite struct TrustKitPolicyFileTests {
    func verify(_ file: String, host: String) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--config", file, "--chain", "leaf-chain.pem", "--host", host,
                               "--ca-file", "root-ca.pem", "--at", TestTime.nowText], in: LibraryCerts.directory)
    }

    @Test("TrustKit refusals in a policy file", arguments: trustKitFileCases)
    func refusalExitsTwoNamingFileLineAndKeyPath(_ fileCase: TrustKitFileCase) throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: fileCase.text)
            let result = try verify(file, host: "api.example.com")
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(file):\(fileCase.line):"), "\(result)")
            #expect(result.stderr.contains(": \(fileCase.keyPath): "), "\(result)")
            #expect(result.stderr.contains(fileCase.fragment), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
    }

    @Test func anInlinePolicyJudgesEachHostByItsDomain() throws {
        let policy = TrustKitFileCase("a parent and an exclusion",
                                      ["example.com:", "  includeSubdomains: true", "  publicKeyHashes: \(pair)",
                                       "api.example.com:", "  excludeSubdomainFromParentPolicy: true"])
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: policy.text)
            let excluded = try verify(file, host: "api.example.com")
            #expect(excluded.status == 0, "\(excluded)")
            #expect(excluded.stdout.contains("TRUSTED"), "\(excluded)")
            let covered = try verify(file, host: "www.example.com")
            #expect(covered.status == 1, "\(covered)")
            #expect(covered.stdout.contains("public key not pinned"), "\(covered)")
        }
    }
}
