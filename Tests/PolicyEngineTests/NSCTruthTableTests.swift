import Foundation
import PolicyEngine
import TestSupport
import Testing

/// Android's Network Security Configuration as a truth table: real XML files in an app's res/ layout, real
/// certificates, verdicts and reasons written by hand from AOSP's source.
@Suite("Android NSC truth table")
struct NSCTruthTableTests {
    @Test("NSC verdicts", arguments: nscTruthTable)
    func connectionHasAndroidsVerdict(_ row: NSCCase) throws {
        let evaluation = try evaluateNSC(row)
        expectVerdict(evaluation, is: row.expected)
    }

    @Test("NSC parse errors", arguments: nscParseErrors)
    func configAndroidRefusesIsAConfigurationErrorNamingFileAndLine(_ row: NSCParseError) throws {
        let error = try #require(throws: ConfigurationError.self) {
            try NSCXMLReader.read(NSCFixtures.config(row.config), debuggable: row.build == .debuggable)
        }
        #expect(error.file == NSCFixtures.config(row.file))
        #expect(error.line == row.line, "\(error)")
        #expect(error.description.contains(row.message), "\(error)")
        #expect(error.description.hasPrefix(NSCFixtures.config(row.file) + ":\(row.line): "), "\(error)")
    }

    @Test func everyFixtureIsInATableAndEveryBadOneFailsInSomeBuild() {
        let used = Set(nscTruthTable.map(\.config) + nscParseErrors.map(\.config) + nscParseErrors.map(\.file))
        for name in NSCFixtures.configNames {
            // A `_debug` companion is read through the config it belongs to.
            let owner = String(name.dropLast("_debug.xml".count)) + ".xml"
            let companion = name.hasSuffix("_debug.xml") && used.contains(owner)
            #expect(used.contains(name) || companion, "\(name) is in no table")
        }
    }

    /// Android expires a pin-set at the device's midnight (UTC-12:00 to UTC+14:00): from 14 hours before 00:00 UTC
    /// to 12 hours after it, the verdict depends on the phone's time zone, and pinctl says so.
    @Test(arguments: [("2026-05-31T10:00:00Z", false), ("2026-05-31T10:00:01Z", true), ("2026-06-01T00:00:00Z", true),
                      ("2026-06-01T12:00:00Z", true), ("2026-06-01T12:00:01Z", false)])
    func expirationNearTheDayWarnsThatThePhonesTimeZoneDecides(_ time: String, _ warned: Bool) throws {
        let evaluation = try evaluateNSC(NSCCase("expiration.xml", "www.example.com", .leaf, .notPinned, at: time))
        let warning = evaluation.warnings.contains { $0.contains("begins in the device's time zone") }
        #expect(warning == warned, "warnings: \(evaluation.warnings)")
    }

    @Test("NSC pin texts", arguments: nscPinTexts)
    func pinTextIsDecodedAsAndroidsBase64Does(_ row: NSCPinText) throws {
        try withConfig(pinSet: "<pin digest=\"SHA-256\">\(row.text)</pin>") { path in
            if row.accepted {
                let config = try NSCXMLReader.read(path)
                let pins = try #require(config.domainConfigs.first?.pinSet?.pins)
                #expect(pins.map(\.text) == ["sha256/" + intermediatePin])
                #expect(pins.first?.matches(LibraryCerts.one("intermediate-ca.pem")) == true)
            } else {
                let error = try #require(throws: ConfigurationError.self) { try NSCXMLReader.read(path) }
                #expect(error.line == 5, "\(error)")
            }
        }
    }

    @Test func digestIsCaseInsensitiveButOnlySHA256() throws {
        for (digest, accepted) in [("sha-256", true), ("Sha-256", true), ("SHA256", false), ("SHA-512", false)] {
            try withConfig(pinSet: "<pin digest=\"\(digest)\">\(intermediatePin)</pin>") { path in
                if accepted {
                    let config = try NSCXMLReader.read(path)
                    #expect(config.domainConfigs.first?.pinSet?.pins.count == 1, "\(digest)")
                } else {
                    #expect(throws: ConfigurationError.self, "\(digest)") { try NSCXMLReader.read(path) }
                }
            }
        }
    }

    @Test("NSC expiration dates", arguments: nscExpirations)
    func expirationIsReadAsSimpleDateFormatReadsIt(_ row: NSCExpiration) throws {
        try withConfig(pinSet: "<pin digest=\"SHA-256\">\(intermediatePin)</pin>",
                       attributes: " expiration=\"\(row.text)\"") { path in
            if let day = row.day {
                let expiration = try NSCXMLReader.read(path).domainConfigs.first?.pinSet?.expiration
                #expect(expiration == (try Timestamp.parse(day + "T00:00:00Z").get()))
            } else {
                let error = try #require(throws: ConfigurationError.self) { try NSCXMLReader.read(path) }
                #expect(error.description.contains("Invalid expiration date in pin-set"), "\(error)")
            }
        }
    }

    @Test("NSC booleans", arguments: nscBooleans)
    func includeSubdomainsIsReadAsAaptCompilesIt(_ row: NSCBoolean) throws {
        try TemporaryDirectory.with { directory in
            let path = try directory.write("config.xml", text: """
                <network-security-config>
                    <domain-config><domain includeSubdomains="\(row.text)">example.com</domain></domain-config>
                </network-security-config>
                """)
            let domain = try NSCXMLReader.read(path).domainConfigs.first?.domains.first
            #expect(domain?.includeSubdomains == row.value)
        }
    }

    /// Java's trim() stops at U+0020: a no-break space stays in the name Android compares, which is then no host
    /// name, and pinctl refuses it there.
    @Test func domainIsTrimmedAsJavaTrimsButANoBreakSpaceStays() throws {
        try TemporaryDirectory.with { directory in
            let path = try directory.write("config.xml", text: """
                <network-security-config>
                    <domain-config><domain>\u{0009} API.Example.COM\n</domain></domain-config>
                </network-security-config>
                """)
            let names = try NSCXMLReader.read(path).domainConfigs.flatMap { $0.domains.map(\.name) }
            #expect(names == ["api.example.com"])
            let spaced = try directory.write("spaced.xml", text: """
                <network-security-config>
                    <domain-config><domain>\u{00A0}www.example.com</domain></domain-config>
                </network-security-config>
                """)
            let error = #expect(throws: ConfigurationError.self) { try NSCXMLReader.read(spaced) }
            #expect(error?.message.contains("contains U+A0") == true, "\(String(describing: error))")
        }
    }

    /// Writes a one-domain config with this pin-set content (its `<pin>` on line 5) and hands over its path.
    private func withConfig(pinSet: String, attributes: String = "", _ body: (String) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            let path = try directory.write("config.xml", text: """
                <network-security-config>
                    <domain-config>
                        <domain>www.example.com</domain>
                        <pin-set\(attributes)>
                            \(pinSet)
                        </pin-set>
                    </domain-config>
                </network-security-config>
                """)
            try body(path)
        }
    }
}

/// Evaluates one row: its config read for its build, its store, its time.
/// Evaluates a row on its fixture, or on `configPath` (the same config written elsewhere).
func evaluateNSC(_ row: NSCCase, configPath: String? = nil) throws -> Evaluation {
    let debuggable = row.build == .debuggable
    let config = try NSCXMLReader.read(configPath ?? NSCFixtures.config(row.config), debuggable: debuggable)
    let context = EvaluationContext(platformAnchors: row.store.trustStore, time: try Timestamp.parse(row.time).get())
    return PolicyEvaluator(context: context)
        .evaluate(NSCPolicy(config: config, debuggable: debuggable), presented: row.chain.certificates,
                  domain: row.host)
}
