import Foundation
import PolicyEngine
import TestSupport
import Testing

/// An Info.plist's NSPinnedDomains read as Security's parseNSPinnedDomains reads it: the six plists of its
/// NSPinnedDomainsParsingTest (OSX/shared_regressions/si-20-sectrust-policies-data), written anew with keys of
/// certs/libraries/, each with the results the test table gives for host example.org, in XML and binary form.
@Suite struct ATSInfoPlistReaderTests {
    static let leaf = LibraryCerts.bareBase64(of: "leaf.pem")
    static let intermediate = LibraryCerts.bareBase64(of: "intermediate-ca.pem")
    static let root = LibraryCerts.bareBase64(of: "root-ca.pem")

    static func identity(_ base64: String) -> [String: Any] { ["SPKI-SHA256-BASE64": base64] }

    struct Case: @unchecked Sendable, CustomStringConvertible {
        let name: String
        let entry: [String: Any]
        /// The number of identities of each kind, nil for a kind not pinned (parseNSPinnedDomains' NULL).
        let leaf: Int?
        let ca: Int?
        /// Whether "subdomain.example.org." is pinned.
        let subdomain: Bool
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "NSPinnedDomains_ca", entry: ["NSIncludesSubdomains": true,
                                                "NSPinnedCAIdentities": [identity(root)]],
             leaf: nil, ca: 1, subdomain: true),
        Case(name: "NSPinnedDomains_leaf", entry: ["NSPinnedLeafIdentities": [identity(leaf), identity(leaf)]],
             leaf: 2, ca: nil, subdomain: false),
        Case(name: "NSPinnedDomains_leaf_and_ca", entry: [
            "NSPinnedCAIdentities": [identity(intermediate), identity(root)],
            "NSPinnedLeafIdentities": [identity(leaf)],
        ], leaf: 1, ca: 2, subdomain: false),
        Case(name: "NSPinnedDomains_without_spki", entry: [:], leaf: nil, ca: nil, subdomain: false),
        Case(name: "NSPinnedDomains_with_empty_spki", entry: ["NSPinnedLeafIdentities": [Any]()],
             leaf: 0, ca: nil, subdomain: false),
        Case(name: "NSPinnedDomains_with_invalid_spki", entry: ["NSPinnedCAIdentities": [root],
                                                                "NSPinnedLeafIdentities": leaf],
             leaf: 0, ca: 0, subdomain: false),
    ]

    static func read(_ bytes: [UInt8]) throws -> NativeConfiguration.Reading {
        try TemporaryDirectory.with { directory in
            try NativeConfiguration.read(try directory.write("Info.plist", bytes: bytes), library: .ats,
                                         settings: .init())
        }
    }

    @Test(arguments: cases, [false, true])
    func entryIsReadAsSecurityReadsIt(_ row: Case, binary: Bool) throws {
        let domains = ["example.org": row.entry]
        let reading = try Self.read(binary ? ATSPlist.binary(domains) : ATSPlist.xml(domains))
        let policy = try #require(reading.policy as? ATSPolicy)
        let entry = try #require(policy.domains.first)
        #expect(entry.leafIdentities?.count == row.leaf)
        #expect(entry.caIdentities?.count == row.ca)
        #expect(policy.hasRule(for: "example.org") == (row.leaf != nil || row.ca != nil))
        #expect(policy.hasRule(for: "subdomain.example.org.") == row.subdomain)
    }

    /// What Security skips silently is said: a wrong type, an identity list with nothing usable in it.
    @Test func whatSecuritySkipsIsNoted() throws {
        let reading = try Self.read(ATSPlist.xml(["example.org": Self.cases[5].entry,
                                                  "example.net": ["NSIncludesSubdomains": 1,
                                                                  "NSPinnedCAIdentities": [Self.identity(Self.root)]]]))
        let notes = reading.notes.joined(separator: "\n")
        #expect(notes.contains("NSPinnedDomains.example.org.NSPinnedLeafIdentities is a string, not an array"), "\(notes)")
        #expect(notes.contains("NSPinnedDomains.example.org.NSPinnedCAIdentities[0] is not a dictionary"), "\(notes)")
        #expect(notes.contains("NSPinnedDomains.example.net.NSIncludesSubdomains is a number, not a boolean"), "\(notes)")
        let policy = try #require(reading.policy as? ATSPolicy)
        // A number is not kCFBooleanTrue: example.net pins itself alone.
        #expect(!policy.hasRule(for: "www.example.net"))
        #expect(policy.hasRule(for: "example.net"))
    }

    /// A note on one entry is a warning of the results for the hosts that entry names (the key, and a name one label
    /// below it whether or not the entry covers subdomains), not of every host the app judges.
    @Test func anEntrysNotesWarnOnlyTheHostsItNames() throws {
        let reading = try Self.read(ATSPlist.xml(["example.org": Self.cases[5].entry,
                                                  "example.net": ["NSIncludesSubdomains": 1,
                                                                  "NSPinnedCAIdentities": [Self.identity(Self.root)]]]))
        let policy = try #require(reading.policy as? ATSPolicy)
        func warnings(_ host: String) -> String {
            let context = EvaluationContext(platformAnchors: LibraryCerts.store(), time: TestTime.now)
            return PolicyEvaluator(context: context).evaluate(policy, presented: LibraryCerts.load("leaf-chain.pem"),
                                                              domain: host).warnings.joined(separator: "\n")
        }
        let org = "NSPinnedDomains.example.org.NSPinnedLeafIdentities is a string"
        let net = "NSPinnedDomains.example.net.NSIncludesSubdomains is a number"
        #expect(warnings("example.org").contains(org))
        #expect(!warnings("example.org").contains(net))
        #expect(warnings("EXAMPLE.NET.").contains(net))
        // The entry fails to cover www.example.net, and the note says why.
        #expect(warnings("www.example.net").contains(net))
        #expect(!warnings("www.example.net").contains(org))
        #expect(!warnings("a.www.example.net").contains(net))
        #expect(!warnings("api.example.com").contains(org) && !warnings("api.example.com").contains(net))
    }

    /// No NSAppTransportSecurity at all is not an Info.plist with pinning: refused, naming the key.
    @Test func aPlistWithoutATSIsRefused() throws {
        let bytes = [UInt8](try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": "x"],
                                                               format: .xml, options: 0))
        #expect(throws: ConfigurationError.self) { try Self.read(bytes) }
    }
}
