import Foundation
import OpenSSLWrapper
import TestSupport
import Testing

/// The NSC fixtures are copies: the certificates in res/raw/ and the pins written in res/xml/ come from
/// certs/libraries/. If that PKI is made again, these tests say which copy went stale.
@Suite("Android NSC fixtures")
struct NSCTruthTableFixtures {
    /// Each file of res/raw/ and the certificates of certs/libraries/ it holds, in order.
    static let rawCopies: [(String, [String])] = [
        ("corp_root.pem", ["expired-root-ca.pem"]), ("debug_ca.pem", ["other-root-ca.pem"]),
        ("expired_root.pem", ["expired-root-ca.pem"]), ("other_root.pem", ["other-root-ca.pem"]),
        ("other_root_der.der", ["other-root-ca.pem"]), ("self_signed.pem", ["self-signed.pem"]),
        ("store_root.pem", ["root-ca.pem"]),
        ("two_roots.pem", ["other-root-ca.pem", "expired-root-ca.pem"]), ("uploads_ca.der", ["root-ca.pem"]),
    ]

    @Test func everyRawFileHoldsTheCertificatesItIsACopyOf() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: NSCFixtures.resources + "/raw").sorted()
        #expect(names == Self.rawCopies.map(\.0))
        for (name, sources) in Self.rawCopies {
            let copy = try CertificateParser.certificates(atPath: NSCFixtures.raw(name))
            #expect(copy == sources.map(LibraryCerts.one), "\(name)")
        }
    }

    @Test func everyPinNamedAfterACertificateIsThatCertificatesKey() throws {
        // `<pin …>TEXT</pin> <!-- NAME.pem -->`, TEXT compared as Android decodes it (blanks skipped, padding
        // optional).
        let pattern = try NSRegularExpression(pattern: #"<pin[^>]*>([^<]*)</pin>\s*<!--\s*([\w.-]+\.pem)\s*-->"#)
        var checked = 0
        for name in NSCFixtures.configNames {
            let text = try String(contentsOfFile: NSCFixtures.config(name), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let pinRange = Range(match.range(at: 1), in: text),
                      let fileRange = Range(match.range(at: 2), in: text) else { continue }
                let written = text[pinRange].filter { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" }
                let expected = LibraryCerts.bareBase64(of: String(text[fileRange])).filter { $0 != "=" }
                #expect(written == expected, "\(name): the pin of \(text[fileRange])")
                checked += 1
            }
        }
        #expect(checked >= 30)
    }
}
