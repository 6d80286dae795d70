import Foundation
import PolicyEngine
import Testing
import TestSupport

/// `config export --to okhttp`: Kotlin, Java and the text list, what OkHttp cannot express, and import(export(x)) == x.
@Suite("OkHttp pins written as Kotlin, Java and a text list")
struct OkHttpSourceWriterTests {
    static let forms: [(NativeExport.Format, String)] = [(.okhttpKotlin, "export.kt"), (.okhttpJava, "Export.java"),
                                                         (.okhttpText, "export.txt")]

    /// An OkHttp policy from `(pattern, pin)` pairs, as `Builder.add` makes it.
    static func policy(_ entries: [(String, String)]) throws -> OkHttpPolicy {
        OkHttpPolicy(entries: try entries.map { pattern, pin in
            OkHttpPolicy.Entry(pattern: try OkHttpPattern(pattern),
                               pin: try OkHttpPin.parse(pin, source: PinSource(.argument(name: "test", index: nil))))
        })
    }

    static func export(_ policy: any TrustPolicy, _ format: NativeExport.Format, losses: inout ExportLosses) throws
        -> String
    {
        guard case .file(let bytes) = try NativeExport.write(policy, as: format, losses: &losses) else {
            throw ExportError("not one file")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: forms)
    func readingAnExportGivesThePatternsAndPinsBackInOrder(_ format: NativeExport.Format, _ name: String) throws {
        let original = try Self.policy([
            ("api.example.com", okA), ("api.example.com", okD), ("*.cdn.example.com", okB), ("**.example.com", okC),
            // A quote and a dollar pass OkHttp's pattern checks but are no host name: pinctl reads no such pattern
            // back (JavaSourceTextTests has the escaping of both).
            ("::1", okB),
            ("**.example.net", okA), ("**.example.net", okB), ("**.example.net", okC), ("**.example.net", okD),
            // Unpadded, as apps write them: read back padded, the same hash.
            ("EXAMPLE.org", String(okB.dropLast())),
        ])
        var losses = ExportLosses()
        let text = try Self.export(original, format, losses: &losses)
        #expect(losses.isEmpty)
        let (read, notes, _) = try readOkHttpSource(name, text)
        #expect(read.entryTexts == original.entryTexts, "\(text)")
        #expect(read.entryTexts.last == OkHttpEntryText("example.org", okB))
        #expect(notes.isEmpty)
    }

    @Test(arguments: [
        (NativeExport.Format.okhttpKotlin, """
            // Written by pinctl config export.
            import okhttp3.CertificatePinner

            val certificatePinner = CertificatePinner.Builder()
                .add("api.example.com", "\(okA)")
                .add(
                    "**.example.com",
                    "\(okC)",
                    "\(okB)",
                    "\(okD)",
                )
                .add("a\\$b.example.com", "\(okA)")
                .build()

            """),
        (.okhttpJava, """
            // Written by pinctl config export.
            import okhttp3.CertificatePinner;

            CertificatePinner certificatePinner = new CertificatePinner.Builder()
                .add("api.example.com", "\(okA)")
                .add(
                    "**.example.com",
                    "\(okC)",
                    "\(okB)",
                    "\(okD)"
                )
                .add("a$b.example.com", "\(okA)")
                .build();

            """),
        (.okhttpText, """
            # Written by pinctl config export.
            # pattern pin [pin…] per line, as pinctl reads OkHttp pins
            api.example.com  \(okA)
            **.example.com   \(okC) \(okB) \(okD)
            a$b.example.com  \(okA)

            """),
    ])
    func eachFormIsWhatAnAppWouldCompileOrPinctlReads(_ format: NativeExport.Format, _ expected: String) throws {
        let policy = try Self.policy([("api.example.com", okA), ("**.example.com", okC), ("**.example.com", okB),
                                      ("a$b.example.com", okA), ("**.example.com", okD)])
        var losses = ExportLosses()
        #expect(try Self.export(policy, format, losses: &losses) == expected)
    }

    @Test func whatOkHttpCannotExpressIsListedAndWrittenInTheFile() throws {
        let leaf = LibraryCerts.one("leaf.pem")
        let intermediate = LibraryCerts.one("intermediate-ca.pem")
        let source = PinSource(.argument(name: "test", index: nil))
        let keyA = try OkHttpPin.parse(okA, source: source)
        let keyB = try OkHttpPin.parse(okB, source: source)
        let portable = PortablePolicy(rules: [
            .init(domain: "example.com", scope: .withSubdomains, keyPins: [keyA],
                  expiration: Date(timeIntervalSince1970: 1_798_761_600)),
            .init(domain: "api.example.com", scope: .exact, excluded: true),
            .init(domain: "other.org", scope: .exact, excluded: true),
            .init(domain: "report.example.org", scope: .oneLabel, keyPins: [keyB], enforced: false),
            .init(domain: "cert.example.net", scope: .exact,
                  certificates: [PinnedCertificate(certificate: leaf, source: source)]),
            .init(domain: "keys.example.net", scope: .exact,
                  keyCertificates: [PinnedCertificate(certificate: intermediate, source: source)]),
        ])
        var losses = ExportLosses()
        let bytes = try OkHttpSourceWriter.write(portable, format: .okhttpText, losses: &losses)
        #expect(losses.items == [
            "the expiration of example.com's pins on 2027-01-01 (OkHttp's pins never expire)",
            "report-only pinning of report.example.org (OkHttp always enforces its pins)",
            "certificate pins of cert.example.net become pins of their keys (OkHttp pins keys)",
            "the exclusion of api.example.com from the pins of **.example.com (OkHttp cannot unpin a host a pattern "
                + "covers)",
        ])
        #expect(String(decoding: bytes, as: UTF8.self) == """
            # Written by pinctl config export.
            # Not expressible in OkHttp, dropped: the expiration of example.com's pins on 2027-01-01 (OkHttp's pins never expire);
            #   report-only pinning of report.example.org (OkHttp always enforces its pins); certificate pins of cert.example.net
            #   become pins of their keys (OkHttp pins keys); the exclusion of api.example.com from the pins of **.example.com
            #   (OkHttp cannot unpin a host a pattern covers)
            # pattern pin [pin…] per line, as pinctl reads OkHttp pins
            **.example.com        \(okA)
            *.report.example.org  \(okB)
            cert.example.net      \(LibraryCerts.pin(of: "leaf.pem"))
            keys.example.net      \(LibraryCerts.pin(of: "intermediate-ca.pem"))

            """)
    }

    @Test func aLossCannotBreakOutOfItsComment() throws {
        var losses = ExportLosses()
        losses.add("the anchors of a\nval evil = 1\u{2028}x")
        let policy = try Self.policy([("api.example.com", okA)])
        let kotlin = try Self.export(policy, .okhttpKotlin, losses: &losses)
        let code = kotlin.split(separator: "\n").filter { !$0.hasPrefix("//") }
        #expect(code.first == "import okhttp3.CertificatePinner")
        #expect(kotlin.contains("// Not expressible in OkHttp, dropped: the anchors of a val evil = 1 x\n"))
    }

    @Test func aDomainOkHttpRefusesOrAPolicyWithoutPinsIsNotWritten() throws {
        var losses = ExportLosses()
        let spaced = PortablePolicy(rules: [.init(domain: "api example.com", scope: .exact, keyPins: [
            try OkHttpPin.parse(okA, source: PinSource(.argument(name: "test", index: nil))),
        ])])
        do {
            _ = try OkHttpSourceWriter.write(spaced, format: .okhttpKotlin, losses: &losses)
            Issue.record("a pattern OkHttp refuses was written")
        } catch {
            #expect(error.description == "the pattern api example.com for api example.com: OkHttp refuses it: Invalid "
                + "pattern: api example.com")
        }
        let excludedOnly = PortablePolicy(rules: [.init(domain: "api.example.com", scope: .exact, excluded: true)])
        do {
            _ = try OkHttpSourceWriter.write(excludedOnly, format: .okhttpJava, losses: &losses)
            Issue.record("a policy without pins was written")
        } catch {
            #expect(error.description == "the policy has no pin for OkHttp to add")
        }
    }
}
