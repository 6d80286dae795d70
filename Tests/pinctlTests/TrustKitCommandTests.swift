import Foundation
import Testing
import TestSupport

/// End-to-end: the built `pinctl verify --library trustkit`, run in certs/libraries/; each TrustKit option changes the
/// verdict or the trust basis of the same chain (leaf-chain.pem: api, www and example.com under root-ca.pem).
@Suite struct TrustKitCommandTests {
    /// Two pins no certificate has: enforced, they reject every pinned host.
    static let unmatched = ["--pin", "sha256/" + String(repeating: "A", count: 43) + "=",
                            "--pin", "sha256/" + String(repeating: "B", count: 43) + "="]

    func verify(_ arguments: [String], chain: String = "leaf-chain.pem", host: String = "api.example.com",
                at time: String = TestTime.nowText) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--library", "trustkit", "--chain", chain, "--host", host,
                               "--ca-file", "root-ca.pem", "--at", time, "--format", "json"] + arguments,
                              in: LibraryCerts.directory)
    }

    /// The trust basis of a trusted JSON report, or the reason code of a rejected one.
    func outcome(_ result: PinctlProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let object = try LiveRun.object(result.stdout, sourceLocation: sourceLocation)
        if let trust = object["trust"] as? [String: Any], let basis = trust["basis"] as? String { return basis }
        return LiveRun.reasonCode(object) ?? "?"
    }

    /// The JSON report's warnings.
    func warnings(_ result: PinctlProcess.Result) throws -> [String] {
        try LiveRun.object(result.stdout)["warnings"] as? [String] ?? []
    }

    @Test func theStoreRootPinnedBesideAnUnmatchedPinIsTrustedAndNamed() throws {
        let result = try verify(["--pin", LibraryCerts.pin(of: "root-ca.pem"), "--pin", Self.unmatched[1]])
        #expect(result.status == 0, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect((object["matchedPin"] as? [String: Any])?["certificate"] as? Int == 2)
        #expect(try outcome(result) == "pin-matched")
    }

    @Test func unmatchedPinsRejectThePinnedHost() throws {
        let result = try verify(Self.unmatched)
        #expect(result.status == 1, "\(result)")
        #expect(try outcome(result) == "public-key-not-pinned")
    }

    @Test func includeSubdomainsExtendsTheDomainsPinsToTheHost() throws {
        let parent = Self.unmatched + ["--trustkit-domain", "example.com"]
        let exact = try verify(parent)
        #expect(exact.status == 0, "\(exact)")
        #expect(try outcome(exact) == "not-pinned")
        let covered = try verify(parent + ["--include-subdomains"])
        #expect(covered.status == 1, "\(covered)")
        #expect(try outcome(covered) == "public-key-not-pinned")
    }

    @Test func trustKitDomainMovesThePinsAwayFromTheHost() throws {
        let elsewhere = try verify(Self.unmatched + ["--trustkit-domain", "www.example.com"])
        #expect(elsewhere.status == 0, "\(elsewhere)")
        #expect(try outcome(elsewhere) == "not-pinned")
        let here = try verify(Self.unmatched + ["--trustkit-domain", "api.example.com"])
        #expect(here.status == 1, "\(here)")
    }

    @Test func reportOnlyAllowsAMismatchWithAWarning() throws {
        let result = try verify(Self.unmatched + ["--report-only"])
        #expect(result.status == 0, "\(result)")
        #expect(try outcome(result) == "failed-open")
        #expect(try warnings(result).contains { $0.contains("enforcePinning is off") }, "\(result)")
    }

    @Test func reportOnlyStillRejectsAChainUnderAnotherRoot() throws {
        let result = try verify(Self.unmatched + ["--report-only"], chain: "leaf-other-root-chain.pem")
        #expect(result.status == 1, "\(result)")
        #expect(try outcome(result) == "untrusted-chain")
    }

    @Test func expirationDateFailsOpenOnlyAfterMidnightUTC() throws {
        let expiring = Self.unmatched + ["--expiration-date", "2026-06-01"]
        let atMidnight = try verify(expiring, at: "2026-06-01T00:00:00Z")
        #expect(atMidnight.status == 1, "\(atMidnight)")
        #expect(try outcome(atMidnight) == "public-key-not-pinned")
        let oneSecondLater = try verify(expiring, at: "2026-06-01T00:00:01Z")
        #expect(oneSecondLater.status == 0, "\(oneSecondLater)")
        #expect(try outcome(oneSecondLater) == "failed-open")
        #expect(try warnings(oneSecondLater).contains { $0.contains("expired on 2026-06-01: fail-open") },
                "\(oneSecondLater)")
        #expect(try warnings(atMidnight).isEmpty, "\(atMidnight)")
    }

    @Test func aKeyTrustKitCannotHashBlocksEvenReportOnly() throws {
        let result = try verify(Self.unmatched + ["--report-only"], chain: "leaf-p521-chain.pem")
        #expect(result.status == 1, "\(result)")
        #expect(try outcome(result) == "unsupported-key")
    }

    @Test func onePinIsAnInputErrorSayingTrustKitRequiresTwo() throws {
        let result = try verify(Array(Self.unmatched.prefix(2)))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("TrustKit requires at least 2"), "\(result)")
    }

    @Test func theSamePinTwiceIsOnePin() throws {
        let result = try verify(Array(Self.unmatched.prefix(2)) + Array(Self.unmatched.prefix(2)))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("1 distinct pin(s)"), "\(result)")
    }

    @Test func includeSubdomainsOnAPublicSuffixIsAnInputError() throws {
        let result = try verify(Self.unmatched + ["--trustkit-domain", "com", "--include-subdomains"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("includeSubdomains on com, a public suffix"), "\(result)")
    }

    @Test func anExpirationDateThatIsNotADayIsAUsageError() throws {
        let result = try verify(Self.unmatched + ["--expiration-date", "2026-6-1"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("yyyy-MM-dd"), "\(result)")
    }
}
