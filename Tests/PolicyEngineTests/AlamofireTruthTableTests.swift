import Foundation
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// Alamofire 5's server trust evaluation as a truth table: every evaluator, every flag combination that changes a
/// verdict, composites and the ServerTrustManager (notes/libraries/alamofire.md, sections A–H).
@Suite("Alamofire truth table")
struct AlamofireTruthTableTests {
    @Test("DefaultTrustEvaluator", arguments: alamofireDefaultRows)
    func standard(_ row: AlamofireRow) { check(row) }

    @Test("PinnedCertificatesTrustEvaluator", arguments: alamofirePinnedRows)
    func pinnedCertificates(_ row: AlamofireRow) { check(row) }

    @Test("PublicKeysTrustEvaluator", arguments: alamofireKeyRows)
    func publicKeys(_ row: AlamofireRow) { check(row) }

    @Test("DisabledTrustEvaluator", arguments: alamofireDisabledRows)
    func disabled(_ row: AlamofireRow) { check(row) }

    @Test("CompositeTrustEvaluator", arguments: alamofireCompositeRows)
    func composite(_ row: AlamofireRow) { check(row) }

    @Test("ServerTrustManager", arguments: alamofireManagerRows)
    func manager(_ row: AlamofireManagerRow) {
        expectVerdict(evaluateAlamofire(row.policy, row.chain, host: row.host), is: row.expected)
    }

    private func check(_ row: AlamofireRow, sourceLocation: SourceLocation = #_sourceLocation) {
        let evaluation = evaluateAlamofire(AlamofirePolicy(evaluator: row.spec.evaluator), row.chain, host: row.host)
        expectVerdict(evaluation, is: row.expected, sourceLocation: sourceLocation)
    }

    @Test func everyFlagCombinationOfEachEvaluatorIsCovered() {
        func combinations(_ rows: [AlamofireRow]) -> Set<String> { Set(rows.map { "\($0.spec)".flagsOnly }) }
        #expect(combinations(alamofireDefaultRows).count == 2)
        #expect(combinations(alamofirePinnedRows).count == 8)
        #expect(combinations(alamofireKeyRows).count == 4)
        #expect(alamofirePinnedRows.count == 17 * 8)
        #expect(alamofireKeyRows.count == 14 * 4)
    }

    @Test func compositeRejectionNamesTheFailingEvaluatorInItsMessage() {
        let spec = AlamofireSpec.composite([.standard, .keys(["other-intermediate-ca.pem"])])
        let evaluation = evaluateAlamofire(AlamofirePolicy(evaluator: spec.evaluator), .valid, host: AlamofireHosts.api)
        let message = evaluation.rejectionMessage ?? ""
        #expect(message.hasPrefix("evaluator 2 of 2 (public-keys): public key not pinned"), "\(message)")
    }

    @Test func messagesQuoteAlamofiresReasons() {
        let noKeys = evaluateAlamofire(AlamofirePolicy(evaluator: AlamofireSpec.keys([]).evaluator), .valid,
                                       host: AlamofireHosts.api)
        #expect(noKeys.rejectionMessage?.contains("No public keys were found or provided for evaluation.") == true)
        let noCertificates = evaluateAlamofire(AlamofirePolicy(evaluator: AlamofireSpec.pinned([]).evaluator), .valid,
                                               host: AlamofireHosts.api)
        #expect(noCertificates.rejectionMessage?.contains("No certificates were found or provided for evaluation.")
            == true)
        let policy = AlamofirePolicy(evaluators: [("www.example.com", .disabled)])
        let none = evaluateAlamofire(policy, .valid, host: AlamofireHosts.api)
        #expect(none.rejectionMessage?.contains("required for host api.example.com but none was found") == true)
    }

    @Test func disabledAndUnvalidatedEvaluatorsSayWhatIsNotChecked() {
        let disabled = evaluateAlamofire(AlamofirePolicy(evaluator: .disabled), .selfSigned, host: AlamofireHosts.api)
        expectWarning(disabled, containing: "DisabledTrustEvaluator accepts every certificate")
        let spec = AlamofireSpec.pinned(["leaf.pem"], acceptSelfSigned: false, defaultValidation: false,
                                        validateHost: false)
        let unvalidated = evaluateAlamofire(AlamofirePolicy(evaluator: spec.evaluator), .expired,
                                            host: AlamofireHosts.api)
        expectWarning(unvalidated, containing: "performDefaultValidation and validateHost are both off")
        let validated = evaluateAlamofire(AlamofirePolicy(evaluator: AlamofireSpec.pinned(["leaf.pem"]).evaluator),
                                          .valid, host: AlamofireHosts.api)
        expectWarning(validated, containing: "both off", present: false)
        let noHost = evaluateAlamofire(AlamofirePolicy(evaluator: AlamofireSpec.standard.evaluator), .valid, host: nil)
        expectWarning(noHost, containing: "no host name was given")
    }

    @Test("A key that looks meant for the host but never matches it is named in a warning",
          arguments: ["API.example.com", "api.example.com:443", "api.example.com.", "*.example.com"])
    func nearMissKeyIsNamedInAWarning(_ key: String) {
        let policy = AlamofirePolicy(evaluators: [(key, .disabled)])
        let evaluation = evaluateAlamofire(policy, .valid, host: AlamofireHosts.api)
        expectVerdict(evaluation, is: .noEvaluator)
        expectWarning(evaluation, containing: "the evaluator for \(key) does not apply to api.example.com")
        #expect(policy.hasRule(for: key))
        #expect(!policy.hasRule(for: AlamofireHosts.api))
        let lenient = AlamofirePolicy(allHostsMustBeEvaluated: false, evaluators: [(key, .disabled)])
        expectWarning(evaluateAlamofire(lenient, .selfSigned, host: AlamofireHosts.api),
                      containing: "the evaluator for \(key) does not apply")
    }

    @Test func anUnrelatedKeyGivesNoWarning() {
        let policy = AlamofirePolicy(evaluators: [("www.example.com", .disabled), ("example.com", .disabled)])
        expectWarning(evaluateAlamofire(policy, .valid, host: AlamofireHosts.api), containing: "does not apply",
                      present: false)
    }

    /// D7: a certificate made now with leaf.pem's key pins that key, not the certificate.
    @Test func publicKeysCompareKeysWhereCertificatesPinningComparesBytes() throws {
        try TemporaryDirectory.with { directory in
            try OpenSSLCLI.run(["req", "-x509", "-key", LibraryCerts.path("leaf.key"), "-subj", "/CN=same key",
                                "-days", "10", "-out", "same-key.pem"], in: directory.path)
            let sameKey = try pins(directory.path("same-key.pem"))
            let keys = AlamofireEvaluator.publicKeys(sameKey, performDefaultValidation: true, validateHost: true)
            expectVerdict(evaluateAlamofire(AlamofirePolicy(evaluator: keys), .valid, host: AlamofireHosts.api),
                            is: .pinned(at: 0))
            let certificates = AlamofireEvaluator.pinnedCertificates(
                sameKey, acceptSelfSignedCertificates: false, performDefaultValidation: true, validateHost: true)
            expectVerdict(evaluateAlamofire(AlamofirePolicy(evaluator: certificates), .valid,
                                              host: AlamofireHosts.api), is: .pinNotInChain)
        }
    }

    /// D8: Security extracts RSA and EC keys only; `compactMap` drops the others, on both sides.
    @Test func anEd25519KeyIsNoPin() throws {
        try TemporaryDirectory.with { directory in
            try OpenSSLCLI.run(["req", "-x509", "-newkey", "ed25519", "-nodes", "-keyout", "ed.key", "-out", "ed.pem",
                                "-subj", "/CN=ed25519", "-days", "10"], in: directory.path)
            let ed25519 = try pins(directory.path("ed.pem"))
            let alone = AlamofireEvaluator.publicKeys(ed25519, performDefaultValidation: false, validateHost: false)
            expectVerdict(evaluateAlamofire(AlamofirePolicy(evaluator: alone), .valid, host: AlamofireHosts.api),
                            is: .noPins)
            let withLeaf = AlamofireEvaluator.publicKeys(ed25519 + [alamofirePin("leaf.pem")],
                                                         performDefaultValidation: false, validateHost: false)
            expectVerdict(evaluateAlamofire(AlamofirePolicy(evaluator: withLeaf), .valid, host: AlamofireHosts.api),
                            is: .pinned(at: 0))
            // Served, its key is dropped too: nothing left to compare.
            let context = EvaluationContext(platformAnchors: LibraryCerts.store(), time: TestTime.now)
            let served = PolicyEvaluator(context: context).evaluate(
                AlamofirePolicy(evaluator: withLeaf), presented: ed25519.map(\.certificate), domain: AlamofireHosts.api)
            expectVerdict(served, is: .keyNotPinned)
        }
    }

    private func pins(_ path: String) throws -> [PinnedCertificate] {
        try CertificateParser.certificates(atPath: path).map {
            PinnedCertificate(certificate: $0, source: PinSource(path))
        }
    }
}

private extension String {
    /// "pinned-certificates(leaf.pem; acceptSelfSigned true, …)" → "acceptSelfSigned true, …": a spec's flags.
    var flagsOnly: String {
        guard let open = firstIndex(of: "(") else { return self }
        let inner = self[index(after: open)...]
        return String(inner.split(separator: ";").last ?? inner)
    }
}
