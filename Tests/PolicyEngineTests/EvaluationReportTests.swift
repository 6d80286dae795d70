import Foundation
import PolicyEngine
import TestSupport
import Testing

/// What an evaluation reports besides its verdict: warnings (DESIGN §2) and the JSON chain (DESIGN §5).
@Suite("Evaluation report")
struct EvaluationReportTests {
    static let leafChain = ["leaf.pem", "intermediate-ca.pem"]

    // MARK: Warnings

    @Test func modeNoneWithInvalidCertificatesAllowedWarnsThatItAcceptsAnyCertificate() throws {
        let evaluation = try evaluate(
            ["self-signed.pem"], with: policy(.none, allowInvalid: true, validatesDomainName: false))
        expectVerdict(evaluation, is: .trusted)
        expectWarning(evaluation, containing: "accepts any certificate")
    }

    @Test func publicKeyModeWithInvalidCertificatesAllowedWarnsThatTheDomainIsNotVerified() throws {
        let evaluation = try evaluate(
            Self.leafChain, with: policy(.publicKey, pinning: ["leaf.pem"], allowInvalid: true))
        expectVerdict(evaluation, is: .pinned(at: 0))
        expectWarning(evaluation, containing: "domain name not verified")
    }

    @Test func strictPoliciesCarryNoDangerWarnings() throws {
        for mode in PinningMode.allCases {
            let evaluation = try evaluate(Self.leafChain, with: policy(mode, pinning: ["leaf.pem", "leaf-rekeyed.pem"]))
            #expect(evaluation.isTrusted)
            #expect(evaluation.warnings.filter { !$0.contains("ignored") }.isEmpty, "\(mode): \(evaluation.warnings)")
        }
    }

    @Test func certificateModeWithInvalidCertificatesAllowedDoesNotClaimTheDomainGoesUnchecked() throws {
        let evaluation = try evaluate(
            Self.leafChain, with: policy(.certificate, pinning: ["leaf.pem"], allowInvalid: true))
        expectWarning(evaluation, containing: "domain name not verified", present: false)
        expectWarning(evaluation, containing: "accepts any certificate", present: false)
    }

    @Test func pinsInModeNoneAreReportedIgnored() throws {
        let pinned = try evaluate(Self.leafChain, with: policy(.none, pinning: ["leaf.pem", "root-ca.pem"]))
        expectWarning(pinned, containing: "2 pin(s) ignored")
        let unpinned = try evaluate(Self.leafChain, with: policy(.none))
        expectWarning(unpinned, containing: "ignored", present: false)
    }

    @Test func domainValidatingPolicyWithoutADomainWarns() throws {
        let evaluation = try evaluate(Self.leafChain, for: nil, with: policy(.none))
        expectVerdict(evaluation, is: .trusted)
        expectWarning(evaluation, containing: "no domain was given")
        let unchecked = try evaluate(Self.leafChain, for: nil, with: policy(.none, validatesDomainName: false))
        expectWarning(unchecked, containing: "no domain was given", present: false)
        let named = try evaluate(Self.leafChain, with: policy(.none))
        expectWarning(named, containing: "no domain was given", present: false)
    }

    @Test func pinningModeWithNoPinsWarnsThatItRejectsEverything() throws {
        let evaluation = try evaluate(Self.leafChain, with: policy(.publicKey))
        expectWarning(evaluation, containing: "mode publickey with no pins rejects every chain")
    }

    @Test func chainCertificateExpiringWithinWarnDaysIsWarnedAbout() throws {
        // 2124-12-15: leaf, intermediate and root all expire on 2125-01-01, 17 days later.
        let time = try Timestamp.parse("2124-12-15T00:00:00Z").get()
        let evaluation = try evaluate(Self.leafChain, with: policy(.none), at: time)
        expectVerdict(evaluation, is: .trusted)
        expectWarning(
            evaluation, containing: "certificate #0 CN=pinning.test expires in 17 day(s), on 2125-01-01T00:00:00Z")
        expectWarning(evaluation, containing: "certificate #2 CN=pinctl Test Root CA")
        let shortWindow = try evaluate(Self.leafChain, with: policy(.none), at: time, warnDays: 10)
        expectWarning(shortWindow, containing: "expires in", present: false)
    }

    @Test func largeWarnDaysWarnsAtTheFixedTestTime() throws {
        let evaluation = try evaluate(Self.leafChain, with: policy(.none), warnDays: 40_000)
        expectWarning(evaluation, containing: "certificate #1 CN=pinctl Test Intermediate CA")
        let defaultWindow = try evaluate(Self.leafChain, with: policy(.none))
        #expect(defaultWindow.warnings.isEmpty, "\(defaultWindow.warnings)")
    }

    @Test func expiredPinnedCertificateIsWarnedAboutWithItsSource() throws {
        let evaluation = try evaluate(
            Self.leafChain, with: policy(.publicKey, pinning: ["leaf.pem", "expired.pem"]))
        expectVerdict(evaluation, is: .pinned(at: 0))
        expectWarning(
            evaluation, containing: "pinned certificate (expired.pem) CN=pinning.test expired on 2021-01-01T00:00:00Z")
    }

    @Test("A policy whose every pin is in the chain has no backup pin",
        arguments: [PinningMode.certificate, .publicKey])
    func everyPinInTheCurrentChainWarnsOfNoBackupPin(_ mode: PinningMode) throws {
        let single = try evaluate(Self.leafChain, with: policy(mode, pinning: ["leaf.pem"]))
        expectWarning(single, containing: "no backup pin")
        let backedUp = try evaluate(Self.leafChain, with: policy(mode, pinning: ["leaf.pem", "leaf-rekeyed.pem"]))
        expectVerdict(backedUp, is: .pinned(at: 0))
        expectWarning(backedUp, containing: "no backup pin", present: false)
    }

    @Test func hashPinOutsideTheChainCountsAsABackup() throws {
        let backup = PublicKeyPin(hash: Certs.one("leaf-rekeyed.pem").spkiSHA256, source: PinSource("backup"))
        let evaluation = try evaluate(Self.leafChain, with: policy(.publicKey, pinning: ["leaf.pem"], hashes: [backup]))
        expectWarning(evaluation, containing: "no backup pin", present: false)
    }

    @Test func warningsNeverChangeTheVerdict() throws {
        // Every warning at once: danger switch, ignored pins, no domain, expiring certificates.
        let evaluation = try evaluate(
            ["expired.pem"], for: nil, with: policy(.none, pinning: ["leaf.pem"], allowInvalid: true), warnDays: 40_000)
        expectVerdict(evaluation, is: .trusted)
        #expect(evaluation.warnings.count >= 4, "\(evaluation.warnings)")
    }

    // MARK: The chain reported

    @Test func chainListsThePresentedCertificatesThenTheStoreRoot() throws {
        let evaluation = try evaluate(Self.leafChain, with: policy(.none))
        #expect(evaluation.presented.count == 2)
        #expect(evaluation.chain.map(\.subject) == [
            "CN=pinning.test", "CN=pinctl Test Intermediate CA,O=pinctl Test", "CN=pinctl Test Root CA,O=pinctl Test",
        ])
        #expect(evaluation.chain[2] == Certs.one("root-ca.pem"))
    }

    @Test func presentedRootIsNotListedTwice() throws {
        let presented = Certs.load("leaf-fullchain.pem")
        let evaluator = TrustEvaluator(policy: policy(.none), anchors: try mainRootStore(), time: TestTime.now)
        let evaluation = evaluator.evaluate(presented: presented, domain: "pinning.test")
        expectVerdict(evaluation, is: .trusted)
        #expect(evaluation.presented.count == 3)
        #expect(evaluation.chain == presented)
    }

    @Test func rejectedChainStillListsWhatTheStoreSupplied() throws {
        let evaluation = try evaluate(["expired.pem", "intermediate-ca.pem"], with: policy(.none))
        expectVerdict(evaluation, is: .rejected("expired", at: 0))
        #expect(evaluation.chain.count == 3)
        #expect(evaluation.chain[2] == Certs.one("root-ca.pem"))
    }

    @Test func chainThatCannotBeBuiltListsOnlyWhatWasPresented() throws {
        let evaluation = try evaluate(["leaf.pem"], with: policy(.none))
        #expect(evaluation.presented.count == 1)
        #expect(evaluation.chain == [Certs.one("leaf.pem")])
    }

    @Test func presentedCertificatesKeepTheirOrderEvenWhenTheyDoNotConnect() throws {
        let presented = ["leaf.pem", "other-intermediate-ca.pem", "intermediate-ca.pem"]
        let evaluation = try evaluate(presented, with: policy(.none))
        expectVerdict(evaluation, is: .trusted)
        #expect(evaluation.presented.count == 3)
        #expect(evaluation.chain == presented.map(Certs.one) + [Certs.one("root-ca.pem")])
    }

    @Test func matchedPinIndexesIntoTheReportedChain() throws {
        let evaluation = try evaluate(Self.leafChain, with: policy(.publicKey, pinning: ["root-ca.pem"]))
        let match = try #require(evaluation.matchedPin)
        let index = try #require(evaluation.matchedPinIndex)
        #expect(index == 2)
        #expect(evaluation.chain[index] == Certs.one("root-ca.pem"))
        #expect(match.source == PinSource("root-ca.pem"))
        #expect(index >= evaluation.presented.count, "the root was supplied, not presented")
    }

    @Test func evaluationRecordsItsTime() throws {
        let evaluation = try evaluate(Self.leafChain, with: policy(.none))
        #expect(evaluation.time == TestTime.now)
        #expect(Timestamp.iso8601(evaluation.time) == TestTime.nowText)
    }
}
