import PolicyEngine
import TestSupport
import Testing

/// Each test pins down one step of DESIGN §2 or its place in the order: dropping or moving a step fails one.
@Suite("Evaluation order")
struct EvaluationOrderTests {
    // MARK: Step 1, contradiction

    @Test("Contradiction wins over every other reason, in every mode", arguments: PinningMode.allCases)
    func contradictionWinsOverEverythingElse(_ mode: PinningMode) throws {
        // An expired leaf without its intermediate, for the wrong host, nothing pinned: every later step would
        // reject it for some other reason.
        let evaluation = try evaluate(
            ["expired.pem"], for: "wrong.test", with: policy(mode, allowInvalid: true, validatesDomainName: true))
        expectVerdict(evaluation, is: .misconfigured("contradiction"))
        #expect(evaluation.rejectionMessage?.contains("requires pinning") == true)
    }

    @Test func contradictionFiresInModeNoneEvenWithPins() throws {
        let evaluation = try evaluate(
            ["leaf.pem", "intermediate-ca.pem"], with: policy(.none, pinning: ["leaf.pem"], allowInvalid: true))
        expectVerdict(evaluation, is: .misconfigured("contradiction"))
    }

    @Test("Without a domain, step 1 never fires", arguments: PinningMode.allCases)
    func contradictionNeedsADomain(_ mode: PinningMode) throws {
        let evaluation = try evaluate(
            ["leaf.pem", "intermediate-ca.pem"], for: nil, with: policy(mode, allowInvalid: true))
        // Mode none is then trusted by step 2; the pinning modes reach their no-pins rejection.
        expectVerdict(evaluation, is: mode == .none ? .trusted : .rejected("no-pins"))
    }

    @Test func contradictionNeedsDomainValidation() throws {
        let evaluation = try evaluate(
            ["self-signed.pem"], with: policy(.none, allowInvalid: true, validatesDomainName: false))
        expectVerdict(evaluation, is: .trusted)
    }

    @Test func contradictionNeedsInvalidCertificatesAllowed() throws {
        let evaluation = try evaluate(["self-signed.pem"], with: policy(.none))
        expectVerdict(evaluation, is: .rejected("untrusted-chain", at: 0))
    }

    // MARK: Step 2, mode none

    @Test func modeNoneWithInvalidCertificatesAllowedAcceptsAnyChain() throws {
        let evaluation = try evaluate(
            ["expired.pem"], for: "wrong.test", with: policy(.none, allowInvalid: true, validatesDomainName: false))
        expectVerdict(evaluation, is: .trusted)
    }

    @Test func modeNoneIgnoresPinsThatWouldNotMatch() throws {
        let evaluation = try evaluate(
            ["leaf.pem", "intermediate-ca.pem"], with: policy(.none, pinning: ["other-leaf.pem"]))
        expectVerdict(evaluation, is: .trusted)
    }

    // MARK: Step 3, default trust gate

    @Test("The default trust gate runs before pinning", arguments: [PinningMode.certificate, .publicKey])
    func defaultTrustGateRunsBeforePinning(_ mode: PinningMode) throws {
        let evaluation = try evaluate(
            ["expired.pem", "intermediate-ca.pem"], with: policy(mode, pinning: ["expired.pem"]))
        expectVerdict(evaluation, is: .rejected("expired", at: 0))
    }

    @Test func defaultTrustGateRejectsAChainCertificateModeAloneWouldAccept() throws {
        // Step 4 alone stops at the pinned leaf and passes; the gate sees the expired intermediate first.
        let presented = ["leaf-under-expired-intermediate.pem", "expired-intermediate-ca.pem"]
        let gated = try evaluate(presented, with: policy(.certificate, pinning: [presented[0]]))
        expectVerdict(gated, is: .rejected("expired", at: 1))
        let ungated = try evaluate(presented, with: policy(.certificate, pinning: [presented[0]], allowInvalid: true))
        expectVerdict(ungated, is: .pinned(at: 0))
    }

    @Test func defaultTrustGateRunsBeforeTheNoPinsCheck() throws {
        let evaluation = try evaluate(["self-signed.pem"], with: policy(.publicKey))
        expectVerdict(evaluation, is: .rejected("untrusted-chain", at: 0))
    }

    // MARK: Step 4, certificate mode

    @Test func certificateModeStillChecksExpiryWithInvalidCertificatesAllowed() throws {
        let evaluation = try evaluate(
            ["expired.pem", "intermediate-ca.pem"],
            with: policy(.certificate, pinning: ["expired.pem"], allowInvalid: true, validatesDomainName: false))
        expectVerdict(evaluation, is: .rejected("expired", at: 0))
        #expect(evaluation.rejectionMessage?.contains("expired on 2021-01-01T00:00:00Z") == true)
    }

    @Test func certificateModeChecksTheExpiryOfThePinnedAnchorItself() throws {
        let evaluation = try evaluate(
            ["leaf-under-expired-intermediate.pem", "expired-intermediate-ca.pem"],
            with: policy(.certificate, pinning: ["expired-intermediate-ca.pem"], allowInvalid: true))
        expectVerdict(evaluation, is: .rejected("expired", at: 1))
    }

    @Test func certificateModeStillChecksTheDomainWithInvalidCertificatesAllowed() throws {
        let evaluation = try evaluate(
            ["leaf.pem", "intermediate-ca.pem"], for: "other.test",
            with: policy(.certificate, pinning: ["leaf.pem"], allowInvalid: true))
        expectVerdict(evaluation, is: .rejected("hostname-mismatch", at: 0))
    }

    @Test func certificateModeTrustsOnlyThePinnedCertificatesNotTheStore() throws {
        // The chain is valid against the store, but the only anchor of step 4 is another PKI's root.
        let evaluation = try evaluate(
            ["leaf.pem", "intermediate-ca.pem"], with: policy(.certificate, pinning: ["other-root-ca.pem"]))
        expectVerdict(evaluation, is: .rejected("untrusted-chain", at: 1))
        #expect(evaluation.rejectionMessage?.contains("anchors: the pinned certificates") == true)
    }

    @Test func certificateModeMatchesTheFirstPinFromTheAnchorDown() throws {
        let evaluation = try evaluate(
            ["leaf.pem", "intermediate-ca.pem"],
            with: policy(.certificate, pinning: ["leaf.pem", "intermediate-ca.pem", "root-ca.pem"]))
        // The leaf is the first pinned certificate presented, so the chain stops there.
        expectVerdict(evaluation, is: .pinned(at: 0))
        #expect(evaluation.matchedPin?.source == PinSource("leaf.pem"))
    }

    @Test func certificateModeStopsAtAPinnedLeafEvenWhenItsExpiredIssuerIsPinnedToo() throws {
        // Pinning the leaf alone passes (the truth table); also pinning its issuer must not bring the issuer's
        // expiry into the chain: the chain stops at the first pinned certificate.
        let presented = ["leaf-under-expired-intermediate.pem", "expired-intermediate-ca.pem"]
        let evaluation = try evaluate(presented, with: policy(.certificate, pinning: presented, allowInvalid: true))
        expectVerdict(evaluation, is: .pinned(at: 0))
    }

    @Test func certificateModeWithOnlyHashPinsHasNothingToAnchor() throws {
        let hash = PublicKeyPin(hash: Certs.one("leaf.pem").spkiSHA256, source: PinSource("--pin"))
        let evaluation = try evaluate(
            ["leaf.pem", "intermediate-ca.pem"], with: policy(.certificate, hashes: [hash], allowInvalid: true))
        // Hash pins are no certificates, so certificate mode holds none and step 1 applies, as in AFNetworking:
        // `self.allowInvalidCertificates && self.validatesDomainName && ... [self.pinnedCertificates count] == 0`.
        // (Flags and policy files refuse these pins before evaluation; this is the engine's own answer.)
        expectVerdict(evaluation, is: .misconfigured("contradiction"))
    }

    // MARK: Step 5, public-key mode

    @Test func publicKeyModeWithInvalidAllowedIgnoresDates() throws {
        let evaluation = try evaluate(
            ["not-yet-valid.pem", "intermediate-ca.pem"],
            with: policy(.publicKey, pinning: ["not-yet-valid.pem"], allowInvalid: true))
        expectVerdict(evaluation, is: .pinned(at: 0))
    }

    @Test func publicKeyModeWithInvalidAllowedIgnoresTheDomainAndTheChain() throws {
        let evaluation = try evaluate(
            ["self-signed.pem"], for: "other.test",
            with: policy(.publicKey, pinning: ["self-signed.pem"], allowInvalid: true))
        expectVerdict(evaluation, is: .pinned(at: 0))
    }

    @Test func publicKeyModeIgnoresPresentedCertificatesThatDoNotConnectToTheLeaf() throws {
        // other-intermediate-ca.pem is sent but did not issue the leaf: it is not in the built chain.
        let evaluation = try evaluate(
            ["leaf.pem", "intermediate-ca.pem", "other-intermediate-ca.pem"],
            with: policy(.publicKey, pinning: ["other-intermediate-ca.pem"]))
        expectVerdict(evaluation, is: .rejected("public-key-not-pinned"))
    }

    @Test func publicKeyModeCandidatesIncludeTheStoreRootEvenWhenTheChainFails() throws {
        let evaluation = try evaluate(
            ["expired.pem", "intermediate-ca.pem"],
            with: policy(.publicKey, pinning: ["root-ca.pem"], allowInvalid: true))
        expectVerdict(evaluation, is: .pinned(at: 2))
    }

    @Test("No pins rejects with no-pins", arguments: [PinningMode.certificate, .publicKey])
    func noPinsRejectsWithNoPins(_ mode: PinningMode) throws {
        let evaluation = try evaluate(
            ["leaf.pem", "intermediate-ca.pem"], with: policy(mode, allowInvalid: true, validatesDomainName: false))
        expectVerdict(evaluation, is: .rejected("no-pins"))
        #expect(evaluation.rejection?.reason.isConfigurationError == false)
        let needed = mode == .certificate ? "certificate pinning needs at least one pinned certificate"
            : "public-key pinning needs at least one pinned key"
        #expect(evaluation.rejectionMessage == "no pins: " + needed)
    }

    @Test("Nothing presented is no-certificate", arguments: PinningMode.allCases)
    func nothingPresentedIsNoCertificate(_ mode: PinningMode) throws {
        let evaluation = try evaluate([], with: policy(mode, pinning: ["leaf.pem"]))
        expectVerdict(evaluation, is: .rejected("no-certificate"))
        #expect(evaluation.chain.isEmpty)
    }
}
