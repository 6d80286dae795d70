import Foundation
import PolicyEngine
import TestSupport
import Testing

/// One configuration and whether TrustKit's parse_configuration.m raises "TrustKit configuration invalid" for it.
struct TKConfiguration: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        case accepted
        /// Refused for this domain (nil: the whole configuration), at this key, with a message containing `fragment`.
        case refused(domain: String?, key: String?, fragment: String)
    }

    let rule: String
    let entries: [(name: String, policy: TrustKitDomainPolicy)]
    let outcome: Outcome

    init(_ rule: String, _ domains: [TKDomain], _ outcome: Outcome) {
        self.init(rule, domains.map { ($0.name, $0.policy) }, outcome)
    }

    init(_ rule: String, _ entries: [(name: String, policy: TrustKitDomainPolicy)], _ outcome: Outcome) {
        self.rule = rule
        self.entries = entries
        self.outcome = outcome
    }

    var testDescription: String {
        switch outcome {
        case .accepted: "\(rule): accepted"
        case .refused(let domain, _, _): "\(rule): refused for \(domain ?? "the configuration")"
        }
    }
}

private let xy = ["X", "Y"]
private let parent = TKDomain.pinned("example.com", xy, subdomains: true)
private func exclusion(_ name: String, with policy: (inout TrustKitDomainPolicy) -> Void)
    -> (name: String, policy: TrustKitDomainPolicy)
{
    var excluded = TKDomain.excluded(name).policy
    policy(&excluded)
    return (name, excluded)
}
private func refused(_ domain: String?, _ key: String?, _ fragment: String) -> TKConfiguration.Outcome {
    .refused(domain: domain, key: key, fragment: fragment)
}
private let shortHash = PublicKeyPin(hash: [UInt8](repeating: 7, count: 20), source: PinSource("20 bytes"))
private let sha1Pin = PublicKeyPin(algorithm: .sha1, hash: [UInt8](repeating: 7, count: 20), source: PinSource("sha1"))

/// Every refusal of parse_configuration.m (notes §1.6), and the near misses TrustKit accepts.
let trustKitConfigurationTable: [TKConfiguration] = [
    TKConfiguration("no domains at all", [TKDomain](), refused(nil, nil, "no pinned domains")),
    // requiredNumberOfPins = enforce ? 2 : 1, counted as an NSSet of decoded hashes.
    TKConfiguration("one pin, enforced", [.pinned("api.example.com", ["X"])],
                    refused("api.example.com", "publicKeyHashes", "requires at least 2")),
    TKConfiguration("one pin twice, enforced", [.pinned("api.example.com", ["X", "X"])],
                    refused("api.example.com", "publicKeyHashes", "1 distinct pin")),
    TKConfiguration("two pins, enforced", [.pinned("api.example.com", xy)], .accepted),
    TKConfiguration("no pin, report-only", [.pinned("api.example.com", [], enforce: false)],
                    refused("api.example.com", "publicKeyHashes", "requires at least 1")),
    TKConfiguration("one pin, report-only", [.pinned("api.example.com", ["X"], enforce: false)], .accepted),
    // [pinnedKeyHash length] != CC_SHA256_DIGEST_LENGTH
    TKConfiguration("a 20-byte hash",
                    [("api.example.com", TrustKitDomainPolicy(publicKeyHashes: [TKPins.pin("X"), shortHash]))],
                    refused("api.example.com", "publicKeyHashes", "not the base64 of a 32-byte SHA-256 hash")),
    TKConfiguration("a SHA-1 pin",
                    [("api.example.com", TrustKitDomainPolicy(publicKeyHashes: [TKPins.pin("X"), sha1Pin]))],
                    refused("api.example.com", "publicKeyHashes", "not the base64 of a 32-byte SHA-256 hash")),
    // GetRegistryLength(domain) == 0: no known public suffix.
    TKConfiguration("localhost", [.pinned("localhost", xy)], refused("localhost", nil, "no known public suffix")),
    TKConfiguration("an IPv4 address", [.pinned("10.0.0.1", xy)], refused("10.0.0.1", nil, "no known public suffix")),
    TKConfiguration("an IPv6 address", [.pinned("::1", xy)], refused("::1", nil, "no known public suffix")),
    TKConfiguration(".internal", [.pinned("x.internal", xy)], refused("x.internal", nil, "no known public suffix")),
    TKConfiguration("a name that is not ASCII", [.pinned("bücher.example.com", xy)],
                    refused("bücher.example.com", nil, "no known public suffix")),
    TKConfiguration("a punycode name", [.pinned("xn--bcher-kva.example.com", xy)], .accepted),
    // Debian's list, not TrustKit's 2018 table: .blanco was retired since (TrustKit accepts it).
    TKConfiguration("a retired TLD", [.pinned("foo.blanco", xy)], refused("foo.blanco", nil, "no known public suffix")),
    // GetRegistryLength(domain) == [domain length] with includeSubdomains: a public suffix.
    TKConfiguration("includeSubdomains on com", [.pinned("com", xy, subdomains: true)],
                    refused("com", "includeSubdomains", "a public suffix")),
    TKConfiguration("includeSubdomains on co.uk", [.pinned("co.uk", xy, subdomains: true)],
                    refused("co.uk", "includeSubdomains", "a public suffix")),
    TKConfiguration("includeSubdomains on github.io (private section)", [.pinned("github.io", xy, subdomains: true)],
                    refused("github.io", "includeSubdomains", "a public suffix")),
    // Debian's list: vercel.app became a suffix after TrustKit's 2018 table (TrustKit accepts it).
    TKConfiguration("includeSubdomains on vercel.app", [.pinned("vercel.app", xy, subdomains: true)],
                    refused("vercel.app", "includeSubdomains", "a public suffix")),
    TKConfiguration("com as an exact host", [.pinned("com", xy)], .accepted),
    TKConfiguration("includeSubdomains under a suffix", [.pinned("example.co.uk", xy, subdomains: true)], .accepted),
    // Debian's list with libpsl: amazonaws.com is registrable (TrustKit's trie quirk refuses it).
    TKConfiguration("amazonaws.com", [.pinned("amazonaws.com", xy, subdomains: true)], .accepted),
    // if ([[domainPinningPolicy allKeys] count] > 1): an exclusion holds nothing else.
    TKConfiguration("an exclusion alone under a parent", [parent, .excluded("api.example.com")], .accepted),
    TKConfiguration("an exclusion with pins",
                    [parent.entry, exclusion("api.example.com") { $0.publicKeyHashes = [TKPins.pin("X")] }],
                    refused("api.example.com", "excludeSubdomainFromParentPolicy", "publicKeyHashes")),
    TKConfiguration("an exclusion with includeSubdomains",
                    [parent.entry, exclusion("api.example.com") { $0.includeSubdomains = true }],
                    refused("api.example.com", "excludeSubdomainFromParentPolicy", "includeSubdomains")),
    TKConfiguration("an exclusion with enforcePinning",
                    [parent.entry, exclusion("api.example.com") { $0.enforcePinning = false }],
                    refused("api.example.com", "excludeSubdomainFromParentPolicy", "enforcePinning")),
    TKConfiguration("an exclusion with a key pinctl does not model",
                    [parent.entry, exclusion("api.example.com") { $0.otherKeys = ["TSKReportUris"] }],
                    refused("api.example.com", "excludeSubdomainFromParentPolicy", "TSKReportUris")),
    TKConfiguration("excludeSubdomainFromParentPolicy false is an ordinary entry",
                    [parent.entry, ("api.example.com", TrustKitDomainPolicy(publicKeyHashes: xy.map(TKPins.pin)))],
                    .accepted),
    // getPinningConfigurationKeyForDomain([@"a" stringByAppendingString:domainName]) == nil → no parent.
    TKConfiguration("an exclusion without any parent", [.excluded("api.example.com")],
                    refused("api.example.com", "excludeSubdomainFromParentPolicy", "no domain with includeSubdomains")),
    TKConfiguration("an exclusion under a parent without includeSubdomains",
                    [.pinned("example.com", xy), .excluded("api.example.com")],
                    refused("api.example.com", "excludeSubdomainFromParentPolicy", "no domain with includeSubdomains")),
    TKConfiguration("an exclusion under an unrelated parent",
                    [.pinned("example.org", xy, subdomains: true), .excluded("api.example.com")],
                    refused("api.example.com", "excludeSubdomainFromParentPolicy", "no domain with includeSubdomains")),
    TKConfiguration("an exclusion under an expired parent",
                    [.pinned("example.com", xy, subdomains: true, expires: TKDay.jan1), .excluded("api.example.com")],
                    .accepted),
    // TrustKit's quirk: the exact key "a" + name answers the parent lookup.
    TKConfiguration("an exclusion beside the key 'a' + its name",
                    [.pinned("aapi.example.com", xy), .excluded("api.example.com")], .accepted),
    TKConfiguration("an exclusion must be a known domain too", [parent, .excluded("localhost")],
                    refused("localhost", nil, "no known public suffix")),
]

@Suite("TrustKit configuration truth table")
struct TrustKitConfigurationTests {
    @Test("TrustKit refusals", arguments: trustKitConfigurationTable)
    func configurationIsRefusedAsTrustKitRefusesIt(_ row: TKConfiguration) {
        let result = Result { () throws(TrustKitConfigurationError) in try TrustKitPolicy(domains: row.entries) }
        switch (row.outcome, result) {
        case (.accepted, .success):
            break
        case (.accepted, .failure(let error)):
            Issue.record("refused: \(error.message)")
        case (.refused, .success):
            Issue.record("accepted")
        case (.refused(let domain, let key, let fragment), .failure(let error)):
            #expect(error.domain == domain)
            #expect(error.key == key)
            #expect(error.message.contains(fragment), "message: \(error.message)")
        }
    }
}
