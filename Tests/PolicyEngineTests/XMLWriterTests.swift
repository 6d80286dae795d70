import Foundation
import PolicyEngine
import Testing
import TestSupport
import XMLTree

/// One rule for characters XML 1.0 cannot hold (§2.2 Char), chosen by each writer: a report shows them as visible
/// escapes and reads back; a configuration is refused with the value's place.
@Suite struct XMLWriterTests {
    /// Every kind of text: plain, XML's own specials, C0 controls, the non-characters U+FFFE and U+FFFF, CR, tab.
    static let texts = ["plain", "<a & \"b\" 'c'>", "esc\u{1B}[2J bel\u{07} nul\u{0} del\u{7F}", "\u{FFFE}\u{FFFF}",
                        "cr\rlf\ntab\t", "\\x1B already escaped", "##[stop-commands]tok1", "", "-- --"]

    static func document(_ text: String) -> XMLOutputElement {
        XMLOutputElement("root", attributes: [("value", text)], children: [
            .element(XMLOutputElement("item", children: [.text(text)])),
        ])
    }

    /// A `-` that a combining mark follows is one Character but still a `-` to XML: a comment holding `-` then
    /// `-\u{5C7}` must still get its space (found by FuzzOutputEscaping).
    @Test func aCommentWithACombiningMarkAfterADashStillParses() throws {
        try XMLLibrary.open()
        let document = XMLDocumentWriter.report(Self.document("x"), comments: ["a--\u{5C7}b-"])
        let text = String(decoding: document, as: UTF8.self)
        #expect(text.contains("<!--a- -\u{5C7}b- -->"), "\(text)")
        _ = try XMLDocumentReader.parse(document)
    }

    /// A loop, not arguments: a test's name with ESC in it would act on the terminal that shows the run.
    @Test func aReportReadsBackAsTheVisibleEscapeOfItsText() throws {
        try XMLLibrary.open()
        for text in Self.texts {
            let read = try XMLDocumentReader.parse(XMLDocumentWriter.report(Self.document(text)))
            let visible = XMLCharacters.visible(text)
            #expect(read.attribute("value")?.value == visible, "\(visible)")
            #expect(read.children.first?.text == visible, "\(visible)")
            #expect(XMLCharacters.firstUnwritable(in: visible) == nil, "\(visible)")
            #expect(XMLCharacters.visible(visible) == visible, "idempotent")
        }
    }

    @Test func theVisibleEscapeIsTheTerminals() {
        #expect(XMLCharacters.visible("a\u{1B}b\u{0}c\u{FFFE}\td\u{7F}") == "a\\x1Bb\\x00c\\u{FFFE}\td\u{7F}")
    }

    @Test func aConfigurationHoldingAControlCharacterIsRefusedAtItsPlace() throws {
        try XMLLibrary.open()
        let root = XMLOutputElement("config", children: [
            .element(XMLOutputElement("entry", children: [.text("fine")])),
            .element(XMLOutputElement("entry", attributes: [("name", "a\u{1B}b")])),
        ])
        let error = #expect(throws: XMLUnwritableValue.self) { try XMLDocumentWriter.configuration(root) }
        #expect(error?.place == "/config/entry[2]/@name")
        #expect(error?.description == "/config/entry[2]/@name would hold 'a\\x1Bb', whose character U+001B XML 1.0 "
            + "cannot hold, not even as a character reference")
        let fine = try XMLDocumentWriter.configuration(Self.document("<a & b>\t"))
        #expect(try XMLDocumentReader.parse(fine).attribute("value")?.value == "<a & b>\t")
    }

    @Test func nscExportOfADomainHoldingAControlCharacterIsRefusedNamingIt() throws {
        let pin = try OkHttpPin.parse(LibraryCerts.pin(of: "root-ca.pem"),
                                      source: PinSource(.argument(name: "test", index: nil)))
        let policy = PortablePolicy(rules: [
            .init(domain: "api.example.com", scope: .exact, keyPins: [pin]),
            .init(domain: "a\u{1B}]0;x\u{07}.example.com", scope: .exact, keyPins: [pin]),
        ])
        var losses = ExportLosses()
        let error = #expect(throws: ExportError.self) { try NSCXMLWriter.write(policy, losses: &losses) }
        #expect(error?.description == "/network-security-config/domain-config[2]/domain would hold "
            + "'a\\x1B]0;x\\x07.example.com', whose character U+001B XML 1.0 cannot hold, not even as a character "
            + "reference: correct the value in the policy")
    }

    @Test func trustKitPlistExportRefusesWhatXMLCannotHoldByTheSameRule() throws {
        let source = PinSource(.argument(name: "test", index: nil))
        let pins = try ["root-ca.pem", "leaf.pem"].map { try OkHttpPin.parse(LibraryCerts.pin(of: $0), source: source) }
        for name in ["a\u{1B}b.example.com", "a\u{FFFE}b.example.com"] {
            var losses = ExportLosses()
            let policy = PortablePolicy(rules: [.init(domain: name, scope: .exact, keyPins: pins)])
            #expect(throws: ExportError.self) {
                try TrustKitConfigurationWriter.write(policy, json: false, losses: &losses)
            }
        }
    }
}
