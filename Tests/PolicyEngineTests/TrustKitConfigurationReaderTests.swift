import Foundation
import PolicyEngine
import TestSupport
import Testing

/// A value of `TSKIncludeSubdomains` as JSON text, and what `boolValue` makes of it (Apple's documented rules).
struct TKFlagCase: Sendable, CustomTestStringConvertible {
    let json: String
    let expected: Bool
    init(_ json: String, _ expected: Bool) {
        self.json = json
        self.expected = expected
    }
    var testDescription: String { "\(json) → \(expected)" }
}

private let flagCases = [
    TKFlagCase("true", true), TKFlagCase("false", false), TKFlagCase("1", true), TKFlagCase("0", false),
    TKFlagCase("2", true), TKFlagCase("-1", true), TKFlagCase(#""YES""#, true), TKFlagCase(#""yes""#, true),
    TKFlagCase(#""true""#, true), TKFlagCase(#""T""#, true), TKFlagCase(#"" Y""#, true), TKFlagCase(#""+01""#, true),
    TKFlagCase(#""9 lives""#, true), TKFlagCase(#""NO""#, false), TKFlagCase(#""false""#, false),
    TKFlagCase(#""0""#, false), TKFlagCase(#""""#, false), TKFlagCase(#""nope""#, false),
]

/// A `TSKExpirationDate` string and the day TrustKit's NSDateFormatter (yyyy-MM-dd, UTC, ICU) reads from it, as
/// observed with ICU's formatter (notes/libraries/trustkit.md §1.5 and a run of DateFormatter here); nil: no day,
/// and TrustKit drops the key.
private let expirationCases: [(text: String, day: String?)] = [
    ("2027-06-30", "2027-06-30"), ("2027-6-3", "2027-06-03"), (" 2027-06-30", "2027-06-30"),
    ("\t2027-06-30", "2027-06-30"), ("2027/06/30", "2027-06-30"), ("2027.06.30", "2027-06-30"),
    ("2027 06 30", "2027-06-30"), ("2027-06-30 ", "2027-06-30"), ("02027-006-030", "2027-06-30"),
    ("27-06-30", "0027-06-30"), ("2028-02-29", "2028-02-29"),
    ("2027-06-30T00:00:00Z", nil), ("20270630", nil), ("2027-13-01", nil), ("2027-02-29", nil), ("2027-06-00", nil),
    ("2027-06-30x", nil), ("2027--06-30", nil), ("+2027-06-30", nil), ("2027-06", nil), ("0000-01-01", nil),
    ("2027-06-30\n", nil), ("", nil),
]

@Suite struct TrustKitConfigurationReaderTests {
    @Test("the shop app in every shape", arguments: TrustKitFixtures.shapes)
    func everyShapeOfTheShopAppReadsAsTheSameDomains(_ name: String) throws {
        let (policy, _) = try readTrustKit(TrustKitFixtures.path(name))
        #expect(TKSummary.of(policy) == TKSummary.shopApp)
    }

    @Test func eachPinPointsAtItsKeyPath() throws {
        let plist = TrustKitFixtures.path("Info.plist")
        let fromPlist = try readTrustKit(plist).policy
        let api = try #require(fromPlist.domains.first { $0.name == "api.example.com" })
        #expect(api.policy.publicKeyHashes.map(\.source.description) == [0, 1].map {
            "\(plist) (TSKConfiguration.TSKPinnedDomains.api.example.com.TSKPublicKeyHashes[\($0)])"
        })
        let json = TrustKitFixtures.path("TSKConfiguration.json")
        let cdn = try #require(try readTrustKit(json).policy.domains.first { $0.name == "cdn.example.com" })
        #expect(cdn.policy.publicKeyHashes.map(\.source.description)
            == ["\(json) (TSKPinnedDomains.cdn.example.com.TSKPublicKeyHashes[0])"])
    }

    @Test func keysWithoutMeaningOfflineAreAcceptedAndNoted() throws {
        let path = TrustKitFixtures.path("Info.plist")
        let notes = try readTrustKit(path).notes
        let prefix = "\(path): TSKConfiguration."
        #expect(notes.count == 3, "\(notes)")
        #expect(notes.contains { $0.hasPrefix(prefix + "TSKSwizzleNetworkDelegates: ignored") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix(prefix + "TSKPinnedDomains.api.example.com.TSKReportUris: ignored") })
        #expect(notes.contains {
            $0.hasPrefix(prefix + "TSKPinnedDomains.api.example.com.TSKDisableDefaultReportUri: ignored")
        })
    }

    @Test func whatTrustKitToleratesIsReadAsItReadsItAndNoted() throws {
        let path = TrustKitFixtures.path("lenient.plist")
        let (policy, notes) = try readTrustKit(path)
        #expect(TKSummary.of(policy) == [
            "api.example.com": TKSummary.line([TKSummary.pin("leaf.pem"), TKSummary.pin("leaf-rekeyed.pem")],
                                              expires: "2027-06-30"),
            "www.example.com": TKSummary.line([TKSummary.pin("intermediate-ca.pem"),
                                               TKSummary.pin("other-intermediate-ca.pem")], subdomains: true),
        ])
        let expected = [
            "MyAppSetting: ignored: TrustKit does not know this key",
            "TSKIgnorePinningForUserDefinedTrustAnchors: ignored: macOS only",
            "api.example.com.TSKIncludeSubdomains: the string 'NO' is read with boolValue as <false/>",
            "api.example.com.TSKExpirationDate: TrustKit's lenient date parser reads '2027-6-30' as 2027-06-30",
            "api.example.com.TSKPublicKeyAlgorithms: ignored: required before TrustKit 1.6.0",
            "api.example.com.TSKExcludeSubdomainFromParentPolicy: ignored: TrustKit does not know this key; its "
                + "exclusion key is spelled kSKExcludeSubdomainFromParentPolicy",
            "www.example.com.TSKIncludeSubdomains: the string 'YES' is read with boolValue as <true/>",
            "www.example.com.TSKExpirationDate: '2026-06-01T00:00:00Z' is not a date TrustKit's yyyy-MM-dd parser "
                + "reads: TrustKit drops the key, so these pins never expire",
        ]
        for fragment in expected {
            #expect(notes.contains { $0.contains(fragment) }, "no note with \(fragment): \(notes)")
        }
        #expect(notes.count == expected.count, "\(notes)")
    }

    @Test func anEmptyConfigurationLeavesTrustKitInertPinningNothing() throws {
        let (policy, notes) = try readTrustKit(TrustKitFixtures.path("empty-configuration.plist"))
        #expect(policy.domains.isEmpty)
        #expect(!policy.hasRule(for: "api.example.com"))
        #expect(notes.count == 1)
        #expect(notes.first?.contains("TSKConfiguration: empty: TrustKit never parses an empty configuration") == true)
    }

    @Test("booleans are read with boolValue", arguments: flagCases)
    func aFlagIsReadWithBoolValue(_ flag: TKFlagCase) throws {
        try TemporaryDirectory.with { directory in
            let path = try directory.write("TSKConfiguration.json", text: """
                {"TSKPinnedDomains": {"example.com": {"TSKIncludeSubdomains": \(flag.json),
                 "TSKPublicKeyHashes": ["\(TKSummary.pin("leaf.pem"))", "\(TKSummary.pin("root-ca.pem"))"]}}}
                """)
            let policy = try readTrustKit(path).policy
            #expect(policy.domains.first?.policy.includeSubdomains == flag.expected)
        }
    }

    @Test("TSKExpirationDate as TrustKit's formatter reads it", arguments: expirationCases.indices)
    func anExpirationIsReadAsTrustKitsFormatterReadsIt(_ index: Int) throws {
        let (text, day) = expirationCases[index]
        let plist: [String: Any] = [TrustKitKey.configuration: [TrustKitKey.pinnedDomains: ["example.com": [
            TrustKitKey.expirationDate: text,
            TrustKitKey.publicKeyHashes: [TKSummary.pin("leaf.pem"), TKSummary.pin("root-ca.pem")],
        ]]]]
        try TemporaryDirectory.with { directory in
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            let path = try directory.write("Info.plist", bytes: [UInt8](data))
            let (policy, notes) = try readTrustKit(path)
            let read = policy.domains.first?.policy.expirationDate.map { Timestamp.day($0) }
            #expect(read == day, "\(text.debugDescription)")
            let dropped = notes.contains { $0.contains("these pins never expire") }
            #expect(dropped == (day == nil), "\(notes)")
        }
    }

    /// A binary plist written here (not by the fixture script), holding a `<date>` where TrustKit wants a string.
    @Test func aBinaryPlistIsReadAndADateObjectRefused() throws {
        let hashes = [TKSummary.pin("leaf.pem"), TKSummary.pin("root-ca.pem")]
        func binary(_ expiration: Any) throws -> [UInt8] {
            let plist: [String: Any] = ["CFBundleIdentifier": "com.example.shop", TrustKitKey.configuration: [
                TrustKitKey.pinnedDomains: ["api.example.com": [TrustKitKey.expirationDate: expiration,
                                                                TrustKitKey.publicKeyHashes: hashes]]]]
            return [UInt8](try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
        }
        try TemporaryDirectory.with { directory in
            let good = try directory.write("good.plist", bytes: try binary("2027-06-30"))
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: good)).prefix(8)) == Array("bplist00".utf8))
            #expect(TKSummary.of(try readTrustKit(good).policy)
                == ["api.example.com": TKSummary.line(hashes, expires: "2027-06-30")])

            let date = Date(timeIntervalSince1970: 1_814_400_000)
            let dated = try directory.write("dated.plist", bytes: try binary(date))
            let error = try #require(trustKitRefusal(dated))
            #expect(error.file == dated)
            #expect(error.line == nil)
            #expect(error.keyPath == "TSKConfiguration.TSKPinnedDomains.api.example.com.TSKExpirationDate")
            #expect(error.message.contains("a <date>, but TrustKit reads a string written yyyy-MM-dd"), "\(error)")
        }
    }

    /// pinctl reads XML property lists with libxml2 and JSON with Jansson: each mistake is refused at its line, with
    /// words a person can act on (expected lines and words written by hand from the text).
    @Test("malformed property lists and JSON", arguments: [
        (#"<plist version="1.0"><dict><key>a</key></dict></plist>"#, 1, "the key 'a' has no value"),
        ("<plist>\n<dict>\n<key>a</key><string>x</string>\n<key>a</key><string>y</string>\n</dict></plist>", 4,
         "the key 'a' is given twice in this <dict>"),
        ("<plist>\n<dict>\n<string>x</string>\n</dict></plist>", 3, "<string> inside <dict> where a <key> belongs"),
        ("<plist>\n<dict>\n<key>a</key>\n<integer>12x</integer></dict></plist>", 4,
         "<integer> holds '12x', not a whole number"),
        ("<plist>\n<set/>\n</plist>", 2, "<set> is no property list element"),
        ("<plist><string>a</string><string>b</string></plist>", 1, "<plist> holds 2 values, not one"),
        ("<dict>\n<key>a</key><true/></dict>", 1, "the root element is <dict>, not <plist>"),
        ("<plist>\n<date>2026-13-01T00:00:00Z</date></plist>", 2, "<date> holds '2026-13-01T00:00:00Z'"),
        // Refused at the declaration, before anything it declares is read.
        ("<!DOCTYPE plist [\n<!ENTITY x \"y\">]>\n<plist><string>&x;</string></plist>", 2,
         "a DOCTYPE that declares anything itself is not accepted"),
        ("{\n\"TSKPinnedDomains\": {},\n\"TSKPinnedDomains\": {}\n}", 3, "duplicate object key"),
    ] as [(String, Int?, String)])
    func aMalformedDocumentIsRefusedAtItsLine(_ text: String, _ line: Int?, _ words: String) throws {
        try TemporaryDirectory.with { directory in
            let path = try directory.write(text.hasPrefix("{") ? "TSKConfiguration.json" : "Info.plist", text: text)
            let error = try #require(trustKitRefusal(path))
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(words), "\(error)")
        }
    }

    /// JSON lets a string hold \u0000 (the export's list of what it dropped can): read, not refused as "not JSON".
    @Test func aJSONStringHoldingNULIsRead() throws {
        try TemporaryDirectory.with { directory in
            let path = try directory.write("TSKConfiguration.json", text: """
                {"TSKPinnedDomains": {"example.com": {"TSKPublicKeyHashes": ["\(TKSummary.pin("leaf.pem"))",
                 "\(TKSummary.pin("root-ca.pem"))"]}}, "_pinctlDropped": ["a\\u0000b"]}
                """)
            let (policy, notes) = try readTrustKit(path)
            #expect(TKSummary.of(policy).keys.sorted() == ["example.com"])
            #expect(notes.contains { $0.contains("which dropped: a\u{0}b") }, "\(notes)")
        }
    }

    /// What FoundationEssentials' reader gave pinctl is what Foundation's writer wrote: every type, in XML and binary.
    @Test func everyPropertyListTypeIsReadAsFoundationWroteIt() throws {
        let plist: [String: Any] = [TrustKitKey.configuration: [
            TrustKitKey.pinnedDomains: ["example.com": [
                TrustKitKey.publicKeyHashes: [TKSummary.pin("leaf.pem"), TKSummary.pin("root-ca.pem")],
                TrustKitKey.includeSubdomains: true, TrustKitKey.enforcePinning: 1,
            ]],
            "Unknown": ["a": Data([1, 2]), "b": 2.5, "c": Date(timeIntervalSince1970: 0), "d": -0x7FFF_FFFF_FFFF_FFFF],
        ]]
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            try TemporaryDirectory.with { directory in
                let data = try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
                let (policy, notes) = try readTrustKit(try directory.write("Info.plist", bytes: [UInt8](data)))
                #expect(TKSummary.of(policy) == ["example.com": TKSummary.line(
                    [TKSummary.pin("leaf.pem"), TKSummary.pin("root-ca.pem")], subdomains: true)], "\(format)")
                #expect(notes.contains { $0.hasSuffix("TSKConfiguration.Unknown: ignored: TrustKit does not know this key") },
                        "\(notes)")
            }
        }
    }

    @Test func hostsOfTheAppEntryAreKeptBesideTheDomains() throws {
        let policy = try TrustKitConfigurationReader.read(TrustKitFixtures.path("Info.plist"),
                                                          hosts: ["login.example.org"]).policy
        #expect(policy.hosts == ["login.example.org"])
    }
}
