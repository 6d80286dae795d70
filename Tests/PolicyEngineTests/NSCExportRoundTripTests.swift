import Foundation
import PolicyEngine
import TestSupport
import Testing

/// `config export --to nsc` of an nsc app writes the configuration itself: read back, it is the same configuration
/// and Android decides every connection of the truth table as before.
@Suite("NSC export round trip")
struct NSCExportRoundTripTests {
    /// The configs Android reads in some build (the `bad_` ones it refuses in both, or in the only build tested).
    static let validConfigs = NSCFixtures.configNames.filter { !$0.hasPrefix("bad_") }

    @Test("Every truth-table row keeps its verdict through an export", arguments: nscTruthTable)
    func exportedConfigKeepsAndroidsVerdict(_ row: NSCCase) throws {
        try Self.withExport(of: row.config, debuggable: row.build == .debuggable) { exported in
            let evaluation = try evaluateNSC(row, configPath: exported)
            expectVerdict(evaluation, is: row.expected)
        }
    }

    @Test("Import of the export is the same configuration",
          arguments: validConfigs, [false, true])
    func importOfExportIsTheSameConfiguration(_ name: String, debuggable: Bool) throws {
        // A build that cannot read the file (a debug-only @raw resource) has nothing to export.
        guard let original = try? NSCXMLReader.read(NSCFixtures.config(name), debuggable: debuggable) else { return }
        try Self.withExport(of: name, debuggable: debuggable) { exported in
            let again = try NSCXMLReader.read(exported, debuggable: debuggable)
            #expect(NSCDescription.lines(again) == NSCDescription.lines(original))
        }
    }

    /// The whole document, written by hand: every level's cleartext setting, nested configs, the domains as read, the
    /// file's comment.
    @Test func cleartextAtEachLevelIsWrittenWhereTheFileSetIt() throws {
        let config = try NSCXMLReader.read(NSCFixtures.config("shape_cleartext_levels.xml"))
        let written = String(decoding: try Self.export(config), as: UTF8.self)
        #expect(written == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- Written by pinctl config export. -->
            <!-- Shape: cleartextTrafficPermitted at each level: off in base-config, on for a local host's domain-config, off
                 again in a domain-config nested below it. -->
            <network-security-config>
              <base-config cleartextTrafficPermitted="false"/>
              <domain-config cleartextTrafficPermitted="true">
                <domain includeSubdomains="true">example.com</domain>
                <domain includeSubdomains="false">10.0.2.2</domain>
                <domain-config cleartextTrafficPermitted="false">
                  <domain includeSubdomains="false">api.example.com</domain>
                </domain-config>
              </domain-config>
            </network-security-config>

            """)
    }

    @Test func pinsAndDebugOverridesAreWrittenAsTheFileWroteThem() throws {
        let pins = String(decoding: try Self.export(try NSCXMLReader.read(NSCFixtures.config("shape_pin_text.xml"))),
                          as: UTF8.self)
        #expect(pins.contains("<pin digest=\"SHA-256\">bbv+fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y</pin>"), "\(pins)")
        // A release build never reads debug-overrides; they are still the app's, and go with it.
        let release = try NSCXMLReader.read(NSCFixtures.config("shape_debug_raw_elsewhere.xml"))
        let debug = String(decoding: try Self.export(release), as: UTF8.self)
        #expect(debug.contains("""
              <debug-overrides cleartextTrafficPermitted="true">
                <trust-anchors>
                  <certificates src="@raw/charles_proxy"/>
                </trust-anchors>
              </debug-overrides>
            """), "\(debug)")
    }

    static func export(_ config: NetworkSecurityConfig, debuggable: Bool = false) throws -> [UInt8] {
        var losses = ExportLosses()
        let output = try NativeExport.write(NSCPolicy(config: config, debuggable: debuggable), as: .nscXML,
                                            losses: &losses)
        #expect(losses.items == [], "a strict export of an nsc app loses nothing")
        guard case .file(let bytes) = output else {
            Issue.record("an NSC export is one file")
            return []
        }
        return bytes
    }

    /// Exports a fixture into `res/xml/` of a temporary app whose `res/raw/` is the fixtures' own.
    static func withExport(of name: String, debuggable: Bool, _ body: (String) throws -> Void) throws {
        let config = try NSCXMLReader.read(NSCFixtures.config(name), debuggable: debuggable)
        let bytes = try export(config, debuggable: debuggable)
        try TemporaryDirectory.with { directory in
            let xml = try directory.makeDirectory("res/xml")
            try FileManager.default.createSymbolicLink(atPath: directory.path("res/raw"),
                                                       withDestinationPath: NSCFixtures.resources + "/raw")
            let path = xml + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try body(path)
        }
    }
}
