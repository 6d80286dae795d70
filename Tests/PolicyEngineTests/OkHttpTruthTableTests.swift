import PolicyEngine
import TestSupport
import Testing

/// OkHttp's CertificatePinner after the platform's checks, as a truth table (OkHttpTruthTableRows.swift) and the
/// failure message OkHttp throws, line for line.
@Suite("OkHttp truth table")
struct OkHttpTruthTableTests {
    @Test("OkHttpPolicy truth table", arguments: okhttpTruthTable)
    func rowHasOkHttpsVerdict(_ row: OkHttpRow) throws {
        let evaluation = evaluateOkHttp(try row.policy(), row.chain.presented, host: row.host)
        expectVerdict(evaluation, is: row.verdict)
        // The backup-pin warning comes from the rotation forecast, which every library shares (tested there).
        let warnings = evaluation.warnings.filter { !$0.hasPrefix("no backup pin:") }
        if let fragment = row.warning {
            #expect(warnings.contains { $0.contains(fragment) }, "warnings: \(warnings)")
        } else {
            #expect(warnings.isEmpty, "warnings: \(warnings)")
        }
    }

    @Test func failureMessageIsLaidOutAsOkHttpsWithNormalisedPinsAndTheCanonicalHost() throws {
        // The rekeyed pin written unpadded and URL-safe; OkHttp prints `Pin.toString()`: standard, padded.
        let rekeyed = LibraryCerts.pin(of: "leaf-rekeyed.pem")
        let written = String(rekeyed.prefix { $0 != "=" }.map { character -> Character in
            character == "+" ? "-" : character == "/" ? "_" : character
        }).replacingOccurrences(of: "sha256_", with: "sha256/")
        let policy = try OkHttpPolicy(entries: [
            .init(pattern: OkHttpPattern("*.example.com"), pin: OkHttpPin.parse(written, source: PinSource("a"))),
            .init(pattern: OkHttpPattern("api.example.com"),
                  pin: OkHttpPin.parse(LibraryCerts.sha1Pin(of: "other-root-ca.pem"), source: PinSource("b"))),
            .init(pattern: OkHttpPattern("www.example.com"),
                  pin: OkHttpPin.parse(LibraryCerts.pin(of: "other-root-ca.pem"), source: PinSource("c"))),
        ])

        let evaluation = evaluateOkHttp(policy, LibraryCerts.load("leaf-chain.pem"), host: "API.example.com")

        // The cleaned chain (the store's root appended), always as sha256 pins with subjects; then the pooled pins
        // of the two patterns matching api.example.com, in insertion order; www.example.com's pin is not listed.
        #expect(evaluation.rejectionMessageLines == [
            "Certificate pinning failure!",
            "  Peer certificate chain:",
            "    \(LibraryCerts.pin(of: "leaf.pem")): CN=api.example.com",
            "    \(LibraryCerts.pin(of: "intermediate-ca.pem")): CN=Libraries Intermediate CA,O=pinctl Libraries",
            "    \(LibraryCerts.pin(of: "root-ca.pem")): CN=Libraries Root CA,O=pinctl Libraries",
            "  Pinned certificates for api.example.com:",
            "    \(rekeyed)",
            "    \(LibraryCerts.sha1Pin(of: "other-root-ca.pem"))",
        ])
    }

    @Test func aPinUnderTwoMatchingPatternsIsListedTwiceAndARepeatedAddOnce() throws {
        let pin = try OkHttpPin.parse(LibraryCerts.pin(of: "leaf-rekeyed.pem"), source: PinSource("x"))
        let again = try OkHttpPin.parse(LibraryCerts.pin(of: "leaf-rekeyed.pem"), source: PinSource("y"))
        // `Builder.build()` is `pins.toSet()`: a Pin is (canonical pattern, algorithm, hash), wherever written.
        let policy = try OkHttpPolicy(entries: [
            .init(pattern: OkHttpPattern("**.example.com"), pin: pin),
            .init(pattern: OkHttpPattern("api.example.com"), pin: pin),
            .init(pattern: OkHttpPattern("API.EXAMPLE.COM"), pin: again),
            .init(pattern: OkHttpPattern("**.example.com"), pin: again),
        ])
        #expect(policy.entries.count == 2)
        #expect(policy.matchingPins(for: "api.example.com").count == 2)
        #expect(policy.matchingPins(for: "www.example.com").count == 1)

        let evaluation = evaluateOkHttp(policy, LibraryCerts.load("leaf-chain.pem"), host: "api.example.com")
        #expect(Array(evaluation.rejectionMessageLines.suffix(3)) == [
            "  Pinned certificates for api.example.com:",
            "    \(LibraryCerts.pin(of: "leaf-rekeyed.pem"))",
            "    \(LibraryCerts.pin(of: "leaf-rekeyed.pem"))",
        ])
    }

    @Test func aSHA256PinOfTheSHA1BytesNeverMatchesAndASHA1PinOfTheSHA256BytesNeither() throws {
        // The algorithm is part of the pin: the right bytes under the wrong prefix match nothing.
        let sha1Bytes = "sha256/" + LibraryCerts.sha1Pin(of: "leaf.pem").dropFirst("sha1/".count)
        let sha256Bytes = "sha1/" + LibraryCerts.pin(of: "leaf.pem").dropFirst("sha256/".count)
        for text in [sha1Bytes, sha256Bytes] {
            let policy = try OkHttpPolicy(entries: [
                .init(pattern: OkHttpPattern("api.example.com"), pin: OkHttpPin.parse(text, source: PinSource("x"))),
            ])
            let evaluation = evaluateOkHttp(policy, LibraryCerts.load("leaf-chain.pem"), host: "api.example.com")
            expectVerdict(evaluation, is: .rejected("public-key-not-pinned"))
        }
    }

    @Test func theTruthTableCoversEveryRuleOnce() {
        var seen = Set<String>()
        for row in okhttpTruthTable { #expect(seen.insert(row.rule).inserted, "duplicate rule \(row.rule)") }
        #expect(okhttpTruthTable.count == 49)
    }
}
