import Foundation
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// App Transport Security's NSPinnedDomains as Apple's Security framework applies it (apple-oss-distributions/
/// Security): the rows of its regression data, written anew on certs/libraries/ (made by a script), and what its
/// code does beyond them. Expected values are written by hand from those sources; the pins are openssl's
/// (certs/libraries/spki-pins.txt).
@Suite("ATS truth table")
struct ATSTruthTableTests {
    /// Base64 of 32 × "A": the dummy identity Security's PinningPolicyTrustTest.plist puts beside the real ones.
    static let dummy = "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="
    static let leaf = LibraryCerts.bareBase64(of: "leaf.pem")
    static let intermediate = LibraryCerts.bareBase64(of: "intermediate-ca.pem")
    static let root = LibraryCerts.bareBase64(of: "root-ca.pem")

    struct Row: Sendable, CustomStringConvertible {
        let name: String
        let leaf: [String]?
        let ca: [String]?
        let expected: ExpectedVerdict
        var description: String { name }
    }

    /// PinningPolicyTrustTest.plist (OSX/shared_regressions/si-20-sectrust-policies-data), its rows for
    /// kSecPolicyCheckLeafSPKISHA256 and kSecPolicyCheckCAspkiSHA256 (ExpectedResult 4 passes, 5 fails), then what
    /// SecPolicyServer.c's two checks say of the rest: the CA check starts at index 1 and ends at the anchor.
    static let rows: [Row] = [
        Row(name: "leaf-good", leaf: [dummy, leaf], ca: nil, expected: .pinned(at: 0)),
        Row(name: "leaf-empty", leaf: [], ca: nil, expected: .rejected("public-key-not-pinned")),
        Row(name: "leaf-bad", leaf: [dummy], ca: nil, expected: .rejected("public-key-not-pinned")),
        Row(name: "intermediate-good", leaf: nil, ca: [dummy, intermediate], expected: .pinned(at: 1)),
        Row(name: "intermediate-empty", leaf: nil, ca: [], expected: .rejected("public-key-not-pinned")),
        Row(name: "intermediate-bad", leaf: nil, ca: [dummy], expected: .rejected("public-key-not-pinned")),
        Row(name: "leaf-good-intermediate-good-root-good", leaf: [dummy, leaf], ca: [dummy, intermediate, dummy, root],
            expected: .pinned(at: 1)),
        Row(name: "leaf-bad-intermediate-good-root-good", leaf: [dummy], ca: [dummy, intermediate, dummy, root],
            expected: .rejected("public-key-not-pinned")),
        Row(name: "the root alone, from the store", leaf: nil, ca: [root], expected: .pinned(at: 2)),
        Row(name: "the leaf's key as a CA identity", leaf: nil, ca: [leaf], expected: .rejected("public-key-not-pinned")),
        Row(name: "a CA's key as a leaf identity", leaf: [intermediate], ca: nil,
            expected: .rejected("public-key-not-pinned")),
    ]

    static func identities(_ texts: [String]?) -> [PublicKeyPin]? {
        texts?.map { text in
            PublicKeyPin(hash: [UInt8](Data(base64Encoded: text)!), source: PinSource(.argument(name: "--pin", index: nil)))
        }
    }

    static func evaluate(_ domains: [ATSPinnedDomain], chain: String = "leaf-chain.pem", host: String,
                         store: TrustStore = LibraryCerts.store()) -> Evaluation {
        let context = EvaluationContext(platformAnchors: store, time: TestTime.now)
        return PolicyEvaluator(context: context).evaluate(ATSPolicy(domains: domains), presented: LibraryCerts.load(chain),
                                                          domain: host)
    }

    static func entry(_ name: String, subdomains: Bool = false, leaf: [String]? = nil, ca: [String]? = nil)
        -> ATSPinnedDomain
    {
        ATSPinnedDomain(name: name, includesSubdomains: subdomains, leafIdentities: identities(leaf),
                        caIdentities: identities(ca), location: "test")
    }

    @Test("Security's pinning checks", arguments: rows)
    func rowHasTheVerdictSecurityGivesIt(_ row: Row) {
        let evaluation = Self.evaluate([Self.entry("api.example.com", leaf: row.leaf, ca: row.ca)],
                                       host: "api.example.com")
        expectVerdict(evaluation, is: row.expected)
    }

    /// The leaf's key listed among the CA identities never matches, and the refusal says so by the certificate.
    @Test func aLeafKeyAmongTheCAIdentitiesIsNamedAsNeverCompared() {
        let evaluation = Self.evaluate([Self.entry("api.example.com", ca: [Self.leaf])], host: "api.example.com")
        #expect(evaluation.rejectionMessage?.contains("which is the key of certificate #0, never compared with "
            + "NSPinnedCAIdentities of api.example.com") == true, "\(evaluation.rejectionMessage ?? "trusted")")
    }

    /// `if (SecPVCGetCertificateCount(pvc) < 2)` the CA check fails: a self-signed leaf that is its own anchor has no
    /// CA to match, even its own key.
    @Test func aPathOfOneCertificateFailsTheCACheck() throws {
        let store = try TrustStore.caFiles([LibraryCerts.path("self-signed.pem")], directories: [])
        let selfSigned = LibraryCerts.bareBase64(of: "self-signed.pem")
        let ca = Self.evaluate([Self.entry("api.example.com", ca: [selfSigned])], chain: "self-signed.pem",
                               host: "api.example.com", store: store)
        expectVerdict(ca, is: .rejected("public-key-not-pinned"))
        let leaf = Self.evaluate([Self.entry("api.example.com", leaf: [selfSigned])], chain: "self-signed.pem",
                                 host: "api.example.com", store: store)
        expectVerdict(leaf, is: .pinned(at: 0))
    }

    /// Pinning only tightens: a pinned chain that fails the system's evaluation is refused for that.
    @Test func aPinDoesNotRescueAChainTheSystemRefuses() {
        let evaluation = Self.evaluate([Self.entry("api.example.com", leaf: [LibraryCerts.bareBase64(
            of: "leaf-other-root.pem")])], chain: "leaf-other-root-chain.pem", host: "api.example.com")
        expectVerdict(evaluation, is: .rejected("untrusted-chain", at: 1))
    }

    /// parseNSPinnedDomains pools every entry that applies, per kind: a broad entry's leaf identities widen a
    /// specific one's, and its CA identities add a second check.
    @Test func everyEntryThatAppliesIsPooled() {
        let widened = Self.evaluate([Self.entry("api.example.com", leaf: [Self.dummy]),
                                     Self.entry("example.com", subdomains: true, leaf: [Self.leaf])],
                                    host: "api.example.com")
        expectVerdict(widened, is: .pinned(at: 0))
        let tightened = Self.evaluate([Self.entry("api.example.com", leaf: [Self.leaf]),
                                       Self.entry("example.com", subdomains: true, ca: [Self.dummy])],
                                      host: "api.example.com")
        expectVerdict(tightened, is: .rejected("public-key-not-pinned"))
    }

    @Test func aHostNoEntryPinsHasTheSystemsEvaluation() {
        let evaluation = Self.evaluate([Self.entry("example.com", ca: [Self.dummy])], host: "api.example.com")
        expectVerdict(evaluation, is: .notPinned)
        expectWarning(evaluation, containing: "is not pinned", present: false)
    }

    /// Entries a person may think apply, which Security's matching leaves out: a key ending in a dot, and a name
    /// two labels below an `NSIncludesSubdomains` entry. The host is unpinned, and a warning says why.
    @Test func entriesThatJustMissTheHostAreNamed() {
        let dotted = Self.evaluate([Self.entry("api.example.com.", ca: [Self.dummy])], host: "api.example.com")
        expectVerdict(dotted, is: .notPinned)
        expectWarning(dotted, containing: "the NSPinnedDomains key 'api.example.com.' ends in a dot")
        let deep = Self.evaluate([Self.entry("com", subdomains: true, ca: [Self.dummy])], host: "api.example.com")
        expectVerdict(deep, is: .notPinned)
        expectWarning(deep, containing: "NSIncludesSubdomains of com covers one label more only")
    }

    struct Lookup: Sendable, CustomStringConvertible {
        let entries: [ATSPinnedDomain]
        let host: String
        let pinned: Bool
        var description: String { "\(entries.map(\.name)) for \(host)" }
    }

    /// The domain matching of parseNSPinnedDomains and CopyParentDomainNameFromHostName.
    static let lookups: [Lookup] = [
        Lookup(entries: [entry("example.org", ca: [root])], host: "example.org", pinned: true),
        Lookup(entries: [entry("example.org", ca: [root])], host: "a.example.org", pinned: false),
        // NSPinnedDomainsParsingTest: the _ca entry (NSIncludesSubdomains) pins "subdomain.example.org.".
        Lookup(entries: [entry("example.org", subdomains: true, ca: [root])], host: "subdomain.example.org.",
               pinned: true),
        Lookup(entries: [entry("example.org", subdomains: true, ca: [root])], host: "example.org", pinned: true),
        // One label more only: "doesn't apply to … advanced.math.example.com" (Apple's NSIncludesSubdomains page).
        Lookup(entries: [entry("example.org", subdomains: true, ca: [root])], host: "b.a.example.org", pinned: false),
        Lookup(entries: [entry("Example.ORG", ca: [root])], host: "example.org", pinned: true),
        Lookup(entries: [entry("example.org", ca: [root])], host: "EXAMPLE.org.", pinned: true),
        // The host loses one trailing dot, the key none.
        Lookup(entries: [entry("example.org.", ca: [root])], host: "example.org.", pinned: false),
        Lookup(entries: [entry("example.org", ca: [root])], host: "example.org..", pinned: false),
        // No public-suffix guard.
        Lookup(entries: [entry("org", subdomains: true, ca: [root])], host: "example.org", pinned: true),
        Lookup(entries: [entry("localhost", leaf: [leaf])], host: "localhost", pinned: true),
        // NSPinnedDomains_without_spki: an entry with neither kind pins nothing.
        Lookup(entries: [entry("example.org")], host: "example.org", pinned: false),
        // NSPinnedDomains_with_empty_spki: the key with nothing in it pins (and fails every chain).
        Lookup(entries: [entry("example.org", leaf: [])], host: "example.org", pinned: true),
    ]

    @Test("NSPinnedDomains lookup", arguments: lookups)
    func hostIsPinnedAsSecurityFindsIt(_ row: Lookup) {
        #expect(ATSPolicy(domains: row.entries).hasRule(for: row.host) == row.pinned)
    }

    /// SecBase64Decode_ with kSecB64_F_STOP_ON_NOTHING, worked by hand: letters outside the alphabet are skipped,
    /// a group ending in `=` gives fewer bytes and ends the decoding, an incomplete group is dropped, a letter after
    /// `=` sets the padding count back to 0.
    @Test(arguments: [
        ("QUJD", [0x41, 0x42, 0x43]), ("QU JD\n", [0x41, 0x42, 0x43]), ("Q-U_JD", [0x41, 0x42, 0x43]),
        ("QUI=", [0x41, 0x42]), ("QQ==", [0x41]), ("QQ==QUJD", [0x41]), ("QUJDRA", [0x41, 0x42, 0x43]),
        ("Q=JD", [0x40, 0x02, 0x43]), ("A===", [0x00, 0x00, 0x00]),
    ] as [(String, [UInt8])])
    func identityTextIsDecodedAsSecurityDecodesIt(text: String, bytes: [UInt8]) throws {
        let pins = try Self.readIdentity(text)
        #expect(pins.map(\.hash) == [bytes])
    }

    /// Nothing decodes (`actual_data_length != 0` fails): the identity is skipped, and the list holds nothing.
    @Test(arguments: ["", "QUJ", "-_!"])
    func identityTextWithNothingToDecodeIsSkipped(text: String) throws {
        #expect(try Self.readIdentity(text).isEmpty)
    }

    /// The one leaf identity of an Info.plist whose one entry has `text` as it.
    static func readIdentity(_ text: String) throws -> [PublicKeyPin] {
        try TemporaryDirectory.with { directory in
            let plist = try ATSPlist.xml(["example.org": ["NSPinnedLeafIdentities": [["SPKI-SHA256-BASE64": text]]]])
            let path = try directory.write("Info.plist", bytes: plist)
            let reading = try NativeConfiguration.read(path, library: .ats, settings: .init())
            return (reading.policy as? ATSPolicy)?.domains.first?.leafIdentities ?? []
        }
    }
}
