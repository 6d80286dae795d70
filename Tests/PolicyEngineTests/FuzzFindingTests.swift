import Foundation
import PolicyEngine
import TestSupport
import Testing

/// Inputs the configuration readers' fuzz targets (Tests/Fuzz/) found mishandled, each fed to the reader the target
/// fuzzes. The inputs are committed as seeds of that target, so every fuzz run replays them too.
@Suite("Fuzz findings: configuration readers")
struct ConfigurationFuzzFindingTests {
    static func policyFileError(_ bytes: [UInt8]) -> ConfigurationError? {
        do {
            _ = try PolicyFile.load(bytes, path: "pinctl.yaml")
            return nil
        } catch {
            return error
        }
    }

    /// libyaml ends a text that lacks a final newline with one of its own, and a YAML error there was reported on
    /// a line after the file's last ("pinctl.yaml:3:1" in a file of two lines).
    @Test func aYAMLErrorAtTheEndOfAFileWithoutAFinalNewlineIsOnItsLastLine() throws {
        let error = try #require(Self.policyFileError(FuzzSeeds.bytes("FuzzPolicyFile", "regression-flow-open-at-end.yaml")))
        #expect(error.message.hasPrefix("not valid YAML"), "\(error)")
        #expect(error.line == 2 && error.column == 11, "\(error)")  // just after `anchors: {`
    }

    /// The same for a value left empty at the very end: its place is the end of the last line.
    @Test func anEmptyValueAtTheEndOfAFileWithoutAFinalNewlineIsOnItsLastLine() throws {
        let error = try #require(Self.policyFileError(FuzzSeeds.bytes("FuzzPolicyFile", "regression-empty-value-at-end.yaml")))
        #expect(error.keyPath == "apps" && error.message.contains("expected a list"), "\(error)")
        #expect(error.line == 1 && error.column == 6, "\(error)")
        // Where the same file with its final newline puts it.
        let withNewline = try #require(Self.policyFileError(Array("apps:\n".utf8)))
        #expect(withNewline.line == 1 && withNewline.column == 6, "\(withNewline)")
    }

    /// A binary plist holding a set (which no property list type is) crashed swift-corelibs-foundation's
    /// PropertyListSerialization with a segmentation fault; it is refused before Foundation reads it.
    @Test func aBinaryPlistHoldingASetIsRefusedNotCrashedOn() throws {
        let bytes = FuzzSeeds.bytes("FuzzTrustKitPlist", "regression-set.plist")
        do {
            _ = try TrustKitConfigurationReader.read(bytes, path: "Info.plist", hosts: [])
            Issue.record("read; expected a refusal")
        } catch {
            #expect(error.file == "Info.plist")
            #expect(error.message.contains("holding a set (object 2)"), "\(error)")
        }
    }

    /// An Android pin-set may expire past the year 9999, and the export cut the day to its first ten characters:
    /// `expiration="51013-06-3"`, which reads back as the 3rd of June.
    @Test func anExpirationPastTheYear9999IsExportedWhole() throws {
        let config = try NSCXMLReader.read(FuzzSeeds.bytes("FuzzNSCXML", "regression-five-digit-year.xml"),
                                           path: "network_security_config.xml")
        let expiration = try #require(config.domainConfigs.first?.pinSet?.expiration)
        #expect(Timestamp.day(expiration) == "51013-06-30")
        var losses = ExportLosses()
        guard case .file(let written) = try NativeExport.write(NSCPolicy(config: config), as: .nscXML,
                                                               losses: &losses) else {
            Issue.record("the XML export is not one file")
            return
        }
        #expect(String(decoding: written, as: UTF8.self).contains(#"expiration="51013-06-30""#))
        let again = try NSCXMLReader.read(written, path: "network_security_config.xml")
        #expect(again.domainConfigs.first?.pinSet?.expiration == expiration)
    }
}
