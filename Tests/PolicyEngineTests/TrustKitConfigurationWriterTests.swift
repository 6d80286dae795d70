import Foundation
import PolicyEngine
import TestSupport
import Testing

/// Portable rules TrustKit cannot say exactly, and the loss `config export` must name.
struct TKLossCase: Sendable, CustomTestStringConvertible {
    let name: String
    let rules: [PortablePolicy.Rule]
    let loss: String
    let written: [String: String]

    var testDescription: String { name }
}

/// Portable rules TrustKit would refuse at launch, and the words of the refusal.
struct TKRefusalCase: Sendable, CustomTestStringConvertible {
    let name: String
    let rules: [PortablePolicy.Rule]
    let fragment: String

    var testDescription: String { name }
}

private func keyPin(_ file: String, sha1: Bool = false) -> PublicKeyPin {
    let text = sha1 ? LibraryCerts.sha1Pin(of: file) : LibraryCerts.pin(of: file)
    let base64 = text.split(separator: "/", maxSplits: 1)[1]
    guard let bytes = Data(base64Encoded: String(base64)) else { fatalError("\(text) is not base64") }
    return PublicKeyPin(algorithm: sha1 ? .sha1 : .sha256, hash: [UInt8](bytes), source: PinSource(file))
}

private func rule(_ domain: String, _ scope: PortablePolicy.Scope, _ pins: [String], expiration: Date? = nil)
    -> PortablePolicy.Rule
{
    PortablePolicy.Rule(domain: domain, scope: scope, keyPins: pins.map { keyPin($0) }, expiration: expiration)
}

private func rule(_ domain: String, _ pins: [String], expiration: Date? = nil) -> PortablePolicy.Rule {
    rule(domain, .exact, pins, expiration: expiration)
}

private let leaf = TKSummary.pin("leaf.pem")
private let root = TKSummary.pin("root-ca.pem")
private let intermediate = TKSummary.pin("intermediate-ca.pem")
private let jun1 = Date(timeIntervalSince1970: 1_780_272_000)  // date -u -d 2026-06-01 +%s

private let lossCases = [
    TKLossCase(name: "one label", rules: [rule("example.com", .oneLabel, ["leaf.pem", "root-ca.pem"])],
               loss: "*.example.com (exactly one more label) becomes example.com with TSKIncludeSubdomains",
               written: ["example.com": TKSummary.line([leaf, root], subdomains: true)]),
    TKLossCase(name: "SHA-1", rules: [PortablePolicy.Rule(domain: "api.example.com", scope: .exact, keyPins: [
        keyPin("leaf.pem"), keyPin("leaf.pem", sha1: true), keyPin("root-ca.pem")])],
               loss: "SHA-1 pins of api.example.com (TrustKit reads SHA-256 hashes only)",
               written: ["api.example.com": TKSummary.line([leaf, root])]),
    TKLossCase(name: "whole certificates", rules: [PortablePolicy.Rule(
        domain: "api.example.com", scope: .exact,
        certificates: ["leaf.pem", "root-ca.pem"].map {
            PinnedCertificate(certificate: LibraryCerts.one($0), source: PinSource($0))
        })],
               loss: "whole-certificate pins of api.example.com become pins of their keys",
               written: ["api.example.com": TKSummary.line([leaf, root])]),
    TKLossCase(name: "an exact and a subdomain rule with other pins",
               rules: [rule("example.com", ["leaf.pem", "root-ca.pem"]),
                       rule("example.com", .withSubdomains, ["intermediate-ca.pem", "root-ca.pem"])],
               loss: "the separate pins of example.com's rules",
               written: ["example.com": TKSummary.line([leaf, root, intermediate], subdomains: true)]),
    TKLossCase(name: "expirations that differ",
               rules: [rule("example.com", ["leaf.pem", "root-ca.pem"], expiration: jun1),
                       rule("example.com", .withSubdomains, ["leaf.pem", "root-ca.pem"])],
               loss: "the expirations of example.com's rules, which differ",
               written: ["example.com": TKSummary.line([leaf, root], subdomains: true)]),
]

private let refusalCases = [
    TKRefusalCase(name: "one pin, enforced", rules: [rule("api.example.com", ["leaf.pem"])],
                  fragment: "api.example.com has 1 distinct pin(s); TrustKit requires at least 2"),
    TKRefusalCase(name: "only SHA-1 pins, report-only", rules: [PortablePolicy.Rule(
        domain: "api.example.com", scope: .exact, keyPins: [keyPin("leaf.pem", sha1: true)], enforced: false)],
                  fragment: "api.example.com has 0 distinct pin(s); TrustKit requires at least 1"),
    TKRefusalCase(name: "subdomains of a public suffix",
                  rules: [rule("co.uk", .withSubdomains, ["leaf.pem", "root-ca.pem"])],
                  fragment: "includeSubdomains on co.uk, a public suffix"),
    TKRefusalCase(name: "a local name", rules: [rule("printer.local", ["leaf.pem", "root-ca.pem"])],
                  fragment: "printer.local has no known public suffix"),
    TKRefusalCase(name: "nothing to pin", rules: [], fragment: "no pinned domains"),
]

@Suite struct TrustKitConfigurationWriterTests {
    func export(_ policy: PortablePolicy, json: Bool = false) throws -> (text: String, losses: ExportLosses) {
        var losses = ExportLosses()
        let bytes = try TrustKitConfigurationWriter.write(policy, json: json, losses: &losses)
        return (String(decoding: bytes, as: UTF8.self), losses)
    }

    /// Writes `text` and reads it back as TrustKit's configuration.
    func reread(_ text: String, json: Bool) throws -> TrustKitPolicy {
        try TemporaryDirectory.with { directory in
            try readTrustKit(try directory.write(json ? "TSKConfiguration.json" : "Info.plist", text: text)).policy
        }
    }

    @Test("import(export(the shop app)) is the shop app", arguments: [false, true])
    func theShopAppSurvivesARoundTrip(json: Bool) throws {
        let app = try readTrustKit(TrustKitFixtures.path("Info.plist")).policy
        var losses = ExportLosses()
        let (text, writeLosses) = try export(try app.portable(losses: &losses), json: json)
        #expect(losses.isEmpty && writeLosses.isEmpty, "\(losses.items + writeLosses.items)")
        #expect(TKSummary.of(try reread(text, json: json)) == TKSummary.shopApp)
    }

    @Test func aPolicyBuiltInCodeSurvivesARoundTrip() throws {
        let policy = try TrustKitPolicy(domains: [
            TKDomain.pinned("example.com", ["X", "Y"], subdomains: true, expires: TKDay.jun1).entry,
            TKDomain.excluded("www.example.com").entry,
            TKDomain.pinned("api.example.com", ["leaf.pem"], enforce: false).entry,
        ])
        var losses = ExportLosses()
        let portable = try policy.portable(losses: &losses)
        // "BBBB…B=" has bits past the 32 bytes; Foundation writes the same bytes back as "BBBB…A=".
        let y = String(repeating: "B", count: 42) + "A="
        let expected = [
            "example.com": TKSummary.line([TKPins.x, y], subdomains: true, expires: "2026-06-01"),
            "www.example.com": TKSummary.excluded,
            "api.example.com": TKSummary.line([leaf], enforce: false),
        ]
        for json in [false, true] {
            #expect(TKSummary.of(try reread(try export(portable, json: json).text, json: json)) == expected)
        }
    }

    @Test func thePlistIsAnInfoPlistFragmentHoldingOnlyKeysTrustKitReads() throws {
        let app = try readTrustKit(TrustKitFixtures.path("Info.plist")).policy
        var losses = ExportLosses()
        let text = try export(try app.portable(losses: &losses)).text
        #expect(text.contains("<!-- Written by pinctl config export. -->\n<plist version=\"1.0\">"), "\(text)")
        #expect(text.contains("<key>kSKExcludeSubdomainFromParentPolicy</key>"))
        #expect(text.contains("<key>TSKExpirationDate</key>\n\t\t\t\t<string>2027-06-30</string>"), "\(text)")
        #expect(!text.contains("<date>") && !text.contains("Dropped") && !text.contains("dropped"))
        let root = try #require(try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil)
            as? [String: Any])
        #expect(root.keys.sorted() == ["TSKConfiguration"])
        let configuration = try #require(root["TSKConfiguration"] as? [String: Any])
        #expect(configuration.keys.sorted() == ["TSKPinnedDomains"])
        let domains = try #require(configuration["TSKPinnedDomains"] as? [String: [String: Any]])
        let known: Set = ["TSKPublicKeyHashes", "TSKIncludeSubdomains", "TSKEnforcePinning", "TSKExpirationDate",
                          "kSKExcludeSubdomainFromParentPolicy"]
        for (name, entry) in domains { #expect(Set(entry.keys).isSubset(of: known), "\(name): \(entry.keys)") }
        #expect(domains["status.example.com"]?.keys.sorted() == ["kSKExcludeSubdomainFromParentPolicy"])
    }

    @Test func theJSONIsTheDictionaryAloneWithoutANoteWhenNothingWasDropped() throws {
        let app = try readTrustKit(TrustKitFixtures.path("TSKConfiguration.json")).policy
        var losses = ExportLosses()
        let text = try export(try app.portable(losses: &losses), json: true).text
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object.keys.sorted() == ["TSKPinnedDomains"])
        #expect(text.contains("\"lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=\""), "slashes escaped: \(text)")
    }

    @Test("what TrustKit cannot express is named, and said in the file", arguments: lossCases)
    func aLossIsNamedAndWrittenIntoTheFile(_ lossCase: TKLossCase) throws {
        let policy = PortablePolicy(rules: lossCase.rules)
        let (plist, losses) = try export(policy)
        #expect(losses.items.contains { $0.contains(lossCase.loss) }, "\(losses.items)")
        #expect(plist.contains("<!-- Not expressible in TrustKit's configuration, dropped: "), "\(plist)")
        #expect(plist.contains(lossCase.loss), "\(plist)")
        #expect(TKSummary.of(try reread(plist, json: false)) == lossCase.written)

        let json = try export(policy, json: true).text
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let dropped = try #require(object["_pinctlDropped"] as? [String])
        #expect(dropped.contains { $0.contains(lossCase.loss) }, "\(dropped)")
        #expect(TKSummary.of(try reread(json, json: true)) == lossCase.written)
    }

    @Test("what TrustKit would refuse at launch is not written", arguments: refusalCases)
    func aConfigurationTrustKitWouldRefuseIsNotExported(_ refusal: TKRefusalCase) throws {
        let error = #expect(throws: ExportError.self) { try export(PortablePolicy(rules: refusal.rules)) }
        #expect(error?.description.contains("TrustKit would refuse the configuration at launch") == true)
        #expect(error?.description.contains(refusal.fragment) == true, "\(String(describing: error))")
    }

    @Test func anExactAndASubdomainRuleWithTheSamePinsBecomeOneEntryWithoutLoss() throws {
        let (text, losses) = try export(PortablePolicy(rules: [
            rule("example.com", ["leaf.pem", "root-ca.pem"]),
            rule("example.com", .withSubdomains, ["root-ca.pem", "leaf.pem"]),
        ]))
        #expect(losses.isEmpty, "\(losses.items)")
        #expect(TKSummary.of(try reread(text, json: false))
            == ["example.com": TKSummary.line([leaf, root], subdomains: true)])
    }

    /// XML 1.0 cannot hold U+000E even escaped (libxml2 refuses to read it back): the plist export is refused, the
    /// JSON one, which can, reads back.
    @Test func aDomainWithAControlCharacterIsRefusedInXMLAndWrittenInJSON() throws {
        let policy = PortablePolicy(rules: [rule("a\u{0E}b.example.com", ["leaf.pem", "root-ca.pem"])])
        var losses = ExportLosses()
        #expect(throws: ExportError.self) { try TrustKitConfigurationWriter.write(policy, json: false, losses: &losses) }
        let (json, _) = try export(policy, json: true)
        // Written, but no host name: pinctl reads no policy naming it back (PolicyHostName).
        let error = try TemporaryDirectory.with { directory in
            trustKitRefusal(try directory.write("TSKConfiguration.json", text: json))
        }
        #expect(error?.message.contains("contains U+E") == true, "\(String(describing: error))")
    }

    /// A NUL in a domain (a binary plist can hold one) cannot be a JSON key pinctl reads back: refused in both forms.
    @Test func aDomainWithANULIsRefusedInBothForms() throws {
        let policy = PortablePolicy(rules: [rule("api.ex\u{0}ample.com", ["leaf.pem", "root-ca.pem"])])
        for json in [false, true] {
            var losses = ExportLosses()
            #expect(throws: ExportError.self) { try TrustKitConfigurationWriter.write(policy, json: json, losses: &losses) }
        }
    }

    /// TrustKit refuses an exclusion no parent covers; a host nothing covers is unpinned anyway, so nothing is lost.
    @Test func anExclusionIsWrittenOnlyUnderAParent() throws {
        let excluded = PortablePolicy.Rule(domain: "status.example.com", scope: .exact, excluded: true)
        let alone = try export(PortablePolicy(rules: [rule("api.example.com", ["leaf.pem", "root-ca.pem"]), excluded]))
        #expect(alone.losses.isEmpty)
        #expect(TKSummary.of(try reread(alone.text, json: false)) == ["api.example.com": TKSummary.line([leaf, root])])

        let underParent = try export(PortablePolicy(rules: [
            excluded, rule("example.com", .withSubdomains, ["leaf.pem", "root-ca.pem"]),
        ]))
        #expect(TKSummary.of(try reread(underParent.text, json: false)) == [
            "example.com": TKSummary.line([leaf, root], subdomains: true), "status.example.com": TKSummary.excluded,
        ])
    }

    /// An XML comment may not hold "--", which every punycode label has.
    @Test func theListOfLossesInAPlistCommentNeverHoldsTwoHyphens() throws {
        let (text, losses) = try export(PortablePolicy(rules: [
            rule("xn--bcher-kva.com", .oneLabel, ["leaf.pem", "root-ca.pem"]),
        ]))
        #expect(losses.items.first?.contains("*.xn--bcher-kva.com") == true, "\(losses.items)")
        let start = try #require(text.range(of: "<!-- Not expressible"))
        let end = try #require(text[start.upperBound...].range(of: "-->"))
        #expect(!text[start.upperBound..<end.lowerBound].contains("--"), "\(text)")
        #expect(TKSummary.of(try reread(text, json: false)).keys.sorted() == ["xn--bcher-kva.com"])
    }

    @Test func theShopAppBecomesAndroidsXMLWithTheSameDomainsAndPins() throws {
        let app = try readTrustKit(TrustKitFixtures.path("Info.plist")).policy
        var losses = ExportLosses()
        guard case .file(let bytes) = try NativeExport.write(app, as: .nscXML, losses: &losses) else {
            Issue.record("an NSC export is one file")
            return
        }
        #expect(losses.items == ["report-only pinning of cdn.example.com (Android always enforces)"])
        let rules = try TemporaryDirectory.with { directory in
            let path = try directory.write("network_security_config.xml", bytes: bytes)
            let nsc = try NativeConfiguration.read(path, library: .nsc, settings: .init()).policy
            var nscLosses = ExportLosses()
            return try #require(nsc as? PortableConvertible).portable(losses: &nscLosses).rules
        }
        let read = rules.map { rule in
            "\(rule.domain) \(rule.scope.rawValue)" + (rule.excluded ? " excluded" : "")
                + " [\(rule.keyPins.map { Data($0.hash).base64EncodedString() }.joined(separator: ", "))]"
                + (rule.expiration.map { " expires " + Timestamp.day($0) } ?? "")
        }
        #expect(read.sorted() == [
            "api.example.com exact [\(leaf), \(TKSummary.pin("leaf-rekeyed.pem"))]",
            "cdn.example.com exact [\(TKSummary.pin("other-root-ca.pem"))] expires 2026-05-01",
            "example.com withSubdomains [\(intermediate), \(TKSummary.pin("other-intermediate-ca.pem"))] "
                + "expires 2027-06-30",
            "status.example.com exact excluded []",
        ])
    }
}
