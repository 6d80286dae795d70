import PolicyEngine
import TestSupport
import Testing

private let label63 = String(repeating: "a", count: 63)
/// Names of 251, 253 and 254 characters (labels of 63, dots between).
private let name251 = [label63, label63, label63, String(repeating: "b", count: 59)].joined(separator: ".")
private let name253 = [label63, label63, label63, String(repeating: "b", count: 61)].joined(separator: ".")
private let name254 = [label63, label63, label63, String(repeating: "b", count: 62)].joined(separator: ".")

/// What `CertificatePinner.Builder().add(pattern, pin)` accepts, refuses (with OkHttp's own message) and rewrites:
/// `Pin`'s initializer, `toCanonicalHost` and okio's `decodeBase64`, each expected value written by hand.
@Suite("OkHttp patterns and pins")
struct OkHttpTruthTableParsing {
    static let unexpected = ["*.*", "*.*.x", "**.*.x", "*.**.x", "***.x", "*", "**", "a*.x", "*a.x", "x.*.y",
                             "example.*", "*.example.com*"]

    @Test(arguments: unexpected)
    func aStarOutsideALeadingLabelIsAnUnexpectedPattern(_ pattern: String) {
        #expect(refusal(pattern) == "Unexpected pattern: \(pattern)")
    }

    static let invalid = ["", "example.com:443", "https://example.com/", "a..b.com", ".example.com", "example..",
                          label63 + "a.com", name254, "**." + name251, "[example.com]", "[1.2.3.4]", "ex ample.com",
                          "user@example.com", "exa%6dple.com", "tab\texample.com", "del\u{7F}.example.com",
                          "back\\slash.com", "fe80::1%eth0", "1:2:3:4:5:6:7::8", "::00001", "1::2::3", "::1.2.3.04",
                          "::1.2.3.256", "::1.2.3", "1:2:3:4:5:6:7:8:9"]

    @Test(arguments: invalid)
    func aPatternWithoutCanonicalFormIsAnInvalidPattern(_ pattern: String) {
        #expect(refusal(pattern) == "Invalid pattern: \(pattern)")
    }

    static let canonical: [(String, String)] = [
        ("EXAMPLE.COM", "example.com"), ("*.MyExample.Com", "*.myexample.com"),
        ("**.Example.CO.UK", "**.example.co.uk"),
        ("example.com.", "example.com."), ("*.", "*."), ("*.com", "*.com"), ("**.com", "**.com"),
        ("{env}.example.com", "{env}.example.com"), ("under_score.example.com", "under_score.example.com"),
        ("1.2.3.4", "1.2.3.4"), ("01.2.3.4", "01.2.3.4"), (label63 + ".com", label63 + ".com"),
        (name253, name253), ("*." + name251, "*." + name251), ("XN--KHTTP-FDE.com", "xn--khttp-fde.com"),
        ("[::1]", "::1"), ("::FFFF:1.2.3.4", "1.2.3.4"), ("[::ffff:7f00:1]", "127.0.0.1"),
        ("FF01:0:0:0:0:0:0:101", "ff01::101"), ("1::1.2.3.4", "1::102:304"), ("::1.2.3.4", "::102:304"),
        ("1:0:0:1:0:0:0:1", "1:0:0:1::1"), ("1:0:0:0:1:0:0:0", "1::1:0:0:0"),
        ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"), ("0:0:0:0:0:0:0:0", "::"),
        ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"),
        ("0001:00ab::", "1:ab::"),
    ]

    @Test(arguments: canonical)
    func anAcceptedPatternIsMatchedInItsCanonicalForm(_ pattern: String, _ expected: String) throws {
        #expect(try OkHttpPattern(pattern).canonical == expected)
    }

    @Test(arguments: ["σkhttp.com", "*.bücher.example"])
    func aNonASCIIPatternIsRefusedByPinctlNotInOkHttpsName(_ pattern: String) {
        do {
            _ = try OkHttpPattern(pattern)
            Issue.record("\(pattern) was accepted")
        } catch {
            #expect(!error.byOkHttp)
            #expect(error.message.contains("xn-- form"), "\(error.message)")
            #expect(!error.explanation.contains("OkHttp refuses"))
        }
    }

    @Test func theHostIsCanonicalisedAsThePatternIs() throws {
        let pin = try OkHttpPin.parse("sha256/AAAA", source: PinSource("x"))
        let policy = try OkHttpPolicy(entries: [
            .init(pattern: OkHttpPattern("::1"), pin: pin), .init(pattern: OkHttpPattern("127.0.0.1"), pin: pin),
            .init(pattern: OkHttpPattern("*.Example.com"), pin: pin),
        ])
        #expect(policy.matchingPins(for: "[0:0::1]").count == 1)
        #expect(policy.matchingPins(for: "::ffff:127.0.0.1").count == 1)
        #expect(policy.matchingPins(for: "WWW.EXAMPLE.COM").count == 1)
        #expect(policy.matchingPins(for: "www.example.com.").isEmpty)
        #expect(OkHttpPattern.hostError("api.example.com") == nil)
        #expect(OkHttpPattern.hostError("a..example.com")
            == "OkHttp's HttpUrl refuses it: Invalid URL host: \"a..example.com\"")
    }

    static let refusedPins: [(String, String)] = [
        ("md5/DmxUShsZuNiqPQsX2Oi9uv2sCnw=",
         "pins must start with 'sha256/' or 'sha1/': md5/DmxUShsZuNiqPQsX2Oi9uv2sCnw="),
        ("SHA256/AAAA", "pins must start with 'sha256/' or 'sha1/': SHA256/AAAA"),
        ("sha512/AAAA", "pins must start with 'sha256/' or 'sha1/': sha512/AAAA"),
        ("sha256", "pins must start with 'sha256/' or 'sha1/': sha256"),
        ("", "pins must start with 'sha256/' or 'sha1/': "),
        ("sha1/DmxUShsZuNiqPQsX2Oi9uv2sCnw*", "Invalid pin hash: sha1/DmxUShsZuNiqPQsX2Oi9uv2sCnw*"),
        ("sha256/a", "Invalid pin hash: sha256/a"),
        ("sha256/AAAAA", "Invalid pin hash: sha256/AAAAA"),
        ("sha256/AAAA=AAAA", "Invalid pin hash: sha256/AAAA=AAAA"),
        ("sha256/AA.A", "Invalid pin hash: sha256/AA.A"),
        ("sha256/AAAé", "Invalid pin hash: sha256/AAAé"),
    ]

    @Test(arguments: refusedPins)
    func aPinOkHttpCannotReadIsRefusedInItsWords(_ pin: String, _ message: String) {
        do {
            _ = try OkHttpPin.parse(pin, source: PinSource("x"))
            Issue.record("\(pin) was accepted")
        } catch {
            #expect(error.byOkHttp)
            #expect(error.message == message)
        }
    }

    static let acceptedPins: [(String, [UInt8])] = [
        ("sha256/", []),
        ("sha256/AAAA", [0, 0, 0]),
        ("sha256/" + String(repeating: "A", count: 43) + "=", [UInt8](repeating: 0, count: 32)),
        ("sha256/AB", [0x00]),  // the low 4 bits of "B" are dropped unchecked
        ("sha256/AP8", [0x00, 0xFF]),
        ("sha256/-_-_", [0xFB, 0xFF, 0xBF]),
        ("sha256/+/+/", [0xFB, 0xFF, 0xBF]),
        ("sha256/AA==", [0x00]),
        ("sha256/AAAA===", [0, 0, 0]),
        ("sha1/ A\tA\nA\rA \n", [0, 0, 0]),
        ("sha256/REPLACE_WITH_BASE64_PIN", Array(repeating: 0, count: 17)),  // 23 characters: 17 bytes
    ]

    @Test(arguments: acceptedPins)
    func okioReadsBase64Leniently(_ text: String, _ bytes: [UInt8]) throws {
        let pin = try OkHttpPin.parse(text, source: PinSource("x"))
        #expect(pin.algorithm == (text.hasPrefix("sha1/") ? .sha1 : .sha256))
        if text.hasSuffix("PIN") {
            #expect(pin.hash.count == bytes.count)
        } else {
            #expect(pin.hash == bytes)
        }
    }

    private func refusal(_ pattern: String) -> String? {
        do {
            _ = try OkHttpPattern(pattern)
            return nil
        } catch {
            #expect(error.byOkHttp)
            return error.message
        }
    }
}
