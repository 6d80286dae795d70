import Foundation
import PolicyEngine
import TestSupport
import Testing

/// A `shape_*.xml` of Tests/Fixtures/nsc/res/xml/ and what Android reads from it in a debuggable build, written by
/// hand from the file: one line per config (`NSCShapeSummary`). That every shape round-trips through `config export
/// --to nsc` with the same verdicts is NSCExportRoundTripTests' and NSCExportCommandTests' (they take every valid
/// file); `nscShapeCorpusRows` gives some of their chains the verdict Android reaches.
struct NSCShapeCase: Sendable, CustomTestStringConvertible {
    let file: String
    let lines: [String]

    init(_ file: String, _ lines: [String]) {
        self.file = file
        self.lines = lines
    }

    var testDescription: String { file }
}

/// A config as lines naming pins by their certificate in certs/libraries/ (spki-pins.txt, made by the openssl CLI):
/// `base cleartext=true anchors=[system, user]`, `config api.example.com+ cleartext=- anchors=- pins=[leaf.pem]`
/// (`+`: includeSubdomains, `-`: not written), children indented, `debug anchors=[…]`.
enum NSCShapeSummary {
    static func lines(_ config: NetworkSecurityConfig) -> [String] {
        var lines: [String] = []
        if let base = config.base {
            lines.append("base cleartext=\(flag(base.cleartextTrafficPermitted)) anchors=\(anchors(base.trustAnchors))")
        }
        for domainConfig in config.domainConfigs { lines += describe(domainConfig, depth: 0) }
        if let debug = config.debugAnchors { lines.append("debug anchors=\(anchors(debug))") }
        return lines
    }

    private static func describe(_ config: NetworkSecurityConfig.Config, depth: Int) -> [String] {
        let domains = config.domains.map { $0.name + ($0.includeSubdomains ? "+" : "") }.joined(separator: " ")
        var line = String(repeating: "  ", count: depth) + "config \(domains) cleartext="
            + flag(config.cleartextTrafficPermitted) + " anchors=\(anchors(config.trustAnchors)) pins="
        if let pinSet = config.pinSet {
            line += "[" + pinSet.pins.map { name(of: $0.hash) }.joined(separator: ", ") + "]"
            if let expiration = pinSet.expiration { line += " until \(Timestamp.day(expiration))" }
        } else {
            line += "-"
        }
        return [line] + config.children.flatMap { describe($0, depth: depth + 1) }
    }

    private static func flag(_ value: Bool?) -> String { value.map { "\($0)" } ?? "-" }

    private static func anchors(_ sources: [NetworkSecurityConfig.CertificatesSource]?) -> String {
        guard let sources else { return "-" }
        return "[" + sources.map { $0.name + ($0.overridePins ? " overridePins" : "") }.joined(separator: ", ") + "]"
    }

    /// The certificate of certs/libraries/ whose SPKI pin this is, or the base64 for a key no certificate has.
    static func name(of hash: [UInt8]) -> String {
        let base64 = Data(hash).base64EncodedString()
        return pinnedCertificates.first { LibraryCerts.bareBase64(of: $0) == base64 } ?? base64
    }

    static let pinnedCertificates = ["leaf.pem", "leaf-rekeyed.pem", "intermediate-ca.pem", "other-intermediate-ca.pem",
                                     "other-root-ca.pem", "root-ca.pem", "other-root-intermediate-ca.pem",
                                     "expired-root-ca.pem"]
}

private let placeholderA = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
/// The files write `BBB…B=`, whose last character carries bits base64 drops: these are the bytes it decodes to.
private let placeholderB = "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA="

/// The shapes added for #19 (the older ones have their rows in the truth table), each line written by hand.
let nscShapeCases: [NSCShapeCase] = [
    NSCShapeCase("shape_dev_hosts_cleartext.xml", [
        "config 10.0.2.2+ localhost+ 127.0.0.1+ 192.168.1.10+ cleartext=true anchors=- pins=-",
    ]),
    NSCShapeCase("shape_dev_hosts_base_false.xml", [
        "base cleartext=false anchors=-",
        "config 10.0.2.2 localhost 127.0.0.1 cleartext=true anchors=- pins=-",
    ]),
    NSCShapeCase("shape_base_after_pins.xml", [
        "base cleartext=true anchors=-",
        "config api.example.com+ cleartext=- anchors=- pins=[leaf.pem, leaf-rekeyed.pem, other-intermediate-ca.pem, "
            + "other-root-ca.pem]",
    ]),
    NSCShapeCase("shape_trustkit_android_config.xml", [
        "config www.example.com cleartext=true anchors=- pins=-",
        "config api.example.com cleartext=- anchors=[@raw/store_root] pins=[leaf.pem, leaf-rekeyed.pem]",
    ]),
    NSCShapeCase("shape_unread_attribute.xml", [
        "config api.example.com+ cleartext=- anchors=- pins=[intermediate-ca.pem, other-intermediate-ca.pem]",
        "config localhost+ cleartext=- anchors=- pins=-",
    ]),
    NSCShapeCase("shape_sibling_pinned_domains.xml", [
        "base cleartext=false anchors=[system, user]",
        "config example.com+ cleartext=false anchors=- pins=[intermediate-ca.pem, other-root-ca.pem]",
        "config api.example.com+ cleartext=false anchors=- pins=[leaf.pem, leaf-rekeyed.pem]",
        "config uploads.api.example.com+ cleartext=false anchors=- pins=[other-intermediate-ca.pem, root-ca.pem]",
    ]),
    NSCShapeCase("shape_base_raw_roots.xml", [
        "base cleartext=- anchors=[@raw/other_root, @raw/expired_root, system]",
    ]),
    NSCShapeCase("shape_many_raw_roots.xml", [
        "base cleartext=true anchors=[@raw/store_root, @raw/other_root_der, @raw/two_roots, @raw/uploads_ca, system]",
        "config example.com+ example.org+ cleartext=true anchors=- pins=-",
    ]),
    NSCShapeCase("shape_base_user_before_system.xml", ["base cleartext=true anchors=[user, system]"]),
    NSCShapeCase("shape_base_commented_anchors.xml", ["base cleartext=true anchors=[system, user]"]),
    NSCShapeCase("shape_tabs_no_cleartext.xml", ["base cleartext=- anchors=[system, user]"]),
    NSCShapeCase("shape_debug_source_set.xml", ["base cleartext=- anchors=[system, user]"]),
    // In debug-overrides every source overrides the pins unless it says otherwise (XmlConfigSource).
    NSCShapeCase("shape_debug_system_and_user.xml", ["debug anchors=[system overridePins, user overridePins]"]),
    NSCShapeCase("shape_revocation_cleartext.xml", [
        "base cleartext=false anchors=[system, user]",
        "config crl.example.net+ ocsp.example.net+ cleartext=true anchors=- pins=-",
        "config example.com+ example.org+ cleartext=false anchors=[system] pins=-",
    ]),
    NSCShapeCase("shape_anchors_and_pins_per_domain.xml", [
        "base cleartext=false anchors=[system]",
        "config api.example.com cleartext=false anchors=[@raw/store_root] pins=[intermediate-ca.pem, "
            + "other-intermediate-ca.pem]",
    ]),
    NSCShapeCase("shape_expired_placeholder_pins.xml", [
        "config api.example.com+ cleartext=- anchors=- pins=[\(placeholderA), other-intermediate-ca.pem] "
            + "until 2018-01-01",
        "config www.example.com+ cleartext=- anchors=- pins=[\(placeholderA), \(placeholderB)]",
    ]),
    NSCShapeCase("shape_library_test_domains.xml", [
        "config api.example.com cleartext=- anchors=- pins=[\(placeholderA), intermediate-ca.pem]",
        "config www.example.com cleartext=- anchors=- pins=[\(placeholderA), leaf.pem]",
    ]),
    NSCShapeCase("shape_debug_user_override_pins.xml", [
        "config api.example.com+ cleartext=- anchors=- pins=[leaf-rekeyed.pem, other-intermediate-ca.pem]",
        "debug anchors=[system overridePins, user overridePins]",
    ]),
    NSCShapeCase("shape_stray_report_uri.xml", [
        "config api.example.com cleartext=- anchors=- pins=[\(placeholderA), root-ca.pem]",
        "config www.example.com cleartext=- anchors=- pins=[\(placeholderA), other-root-ca.pem]",
    ]),
]

@Suite("NSC shapes of public apps")
struct NSCShapeCorpusTests {
    @Test("each shape reads as written", arguments: nscShapeCases)
    func eachShapeReadsAsWritten(_ shape: NSCShapeCase) throws {
        let config = try NSCXMLReader.read(NSCFixtures.config(shape.file), debuggable: true)
        #expect(NSCShapeSummary.lines(config) == shape.lines)
    }

    /// The README names each shape's origin; a shape without an expectation here, or a row without a file, is a slip.
    @Test func everyShapeFileHasAnExpectationAndTheCorpusHasThirty() throws {
        let files = Set(NSCFixtures.configNames.filter { $0.hasPrefix("shape_") })
        let older: Set = ["shape_base_only.xml", "shape_debug_only_user.xml", "shape_base_debug_user.xml",
                          "shape_cleartext_levels.xml", "shape_nested_pins.xml", "shape_empty_anchors.xml",
                          "shape_raw_override_pins.xml", "shape_pin_text.xml", "shape_debug_raw_elsewhere.xml",
                          "shape_hsts_and_pins.xml", "shape_tools_ignore.xml"]
        #expect(files == older.union(nscShapeCases.map(\.file)))
        #expect(files.count >= 30)
        let readme = try String(contentsOfFile: NSCFixtures.resources + "/../README.md", encoding: .utf8)
        for file in files { #expect(readme.contains("`\(file)`"), "\(file) has no row in the README") }
    }
}
