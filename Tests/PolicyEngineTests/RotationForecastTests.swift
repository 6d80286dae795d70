import Foundation
import PolicyEngine
import TestSupport
import Testing

/// DESIGN §10's forecast and findings, on certs/libraries/ (leaf ← intermediate ← root from the store), every
/// expectation written by hand.
@Suite("Rotation forecast")
struct RotationForecastTests {
    static let chain = ["leaf.pem", "intermediate-ca.pem"]

    static func lint(_ policy: any TrustPolicy, host: String = "api.example.com", chain: [String] = chain,
                     at time: Date = TestTime.now, horizon: Int = 400) -> LintResult {
        let context = EvaluationContext(platformAnchors: LibraryCerts.store(), time: time)
        let evaluation = PolicyEvaluator(context: context).evaluate(policy, presented: chain.map(LibraryCerts.one),
                                                                   domain: host)
        return LintResult(policy: policy, host: host, evaluation: evaluation, horizonDays: horizon)
    }

    static func certificate(_ file: String) -> PinnedCertificate {
        PinnedCertificate(certificate: LibraryCerts.one(file), source: PinSource(.file(path: file, line: nil, entry: nil)))
    }

    static func key(_ file: String) -> PublicKeyPin { certificate(file).keyPin }

    static func afn(_ mode: PinningMode, certificates: [String] = [], keys: [String] = []) -> AFNetworkingPolicy {
        AFNetworkingPolicy(mode: mode, pinnedCertificates: certificates.map(certificate), pinnedKeyHashes: keys.map(key))
    }

    typealias Outcomes = [RotationOutcome]
    static let leafNotAfter = LibraryCerts.one("leaf.pem").notAfter
    static let intermediateNotAfter = LibraryCerts.one("intermediate-ca.pem").notAfter
    static let rootNotAfter = LibraryCerts.one("root-ca.pem").notAfter

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: @Sendable () -> any TrustPolicy
        /// renew-leaf, rekey-leaf, new-intermediate, new-ca.
        let outcomes: Outcomes
        let breaksOn: Date?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "certificate pin on the leaf: a renewal breaks", policy: { afn(.certificate, certificates: ["leaf.pem"]) },
            outcomes: [.breaks, .breaks, .breaks, .breaks], breaksOn: leafNotAfter),
        Row(name: "leaf key pin: a renewal survives, a re-key breaks", policy: { afn(.publicKey, keys: ["leaf.pem"]) },
            outcomes: [.survives, .breaks, .breaks, .breaks], breaksOn: leafNotAfter),
        Row(name: "leaf key pin and a backup: a re-key needs the backup",
            policy: { afn(.publicKey, keys: ["leaf.pem", "leaf-rekeyed.pem"]) },
            outcomes: [.survives, .needsBackup, .needsBackup, .needsBackup], breaksOn: nil),
        Row(name: "intermediate key: survives renewal and re-key, a new intermediate breaks",
            policy: { afn(.publicKey, keys: ["intermediate-ca.pem"]) },
            outcomes: [.survives, .survives, .breaks, .breaks], breaksOn: intermediateNotAfter),
        Row(name: "intermediate certificate: the same, by DER",
            policy: { afn(.certificate, certificates: ["intermediate-ca.pem"]) },
            outcomes: [.survives, .survives, .breaks, .breaks], breaksOn: intermediateNotAfter),
        Row(name: "root key from the store: survives all but a new CA",
            policy: { OkHttpPolicy(entries: [.init(pattern: try! OkHttpPattern("api.example.com"), pin: key("root-ca.pem"))]) },
            outcomes: [.survives, .survives, .survives, .breaks], breaksOn: rootNotAfter),
        Row(name: "a host no pattern matches: nothing breaks, nothing to attribute",
            policy: { OkHttpPolicy(entries: [.init(pattern: try! OkHttpPattern("other.example.com"), pin: key("leaf.pem"))]) },
            outcomes: [.survives, .survives, .survives, .survives], breaksOn: nil),
    ]

    @Test("each pin position gives its outcome for each event, and breaksOn", arguments: rows)
    func forecast(_ row: Row) {
        let result = Self.lint(row.policy())
        #expect(RotationEvent.allCases.map(result.forecast.outcome) == row.outcomes)
        #expect(result.forecast.breaksOn == row.breaksOn)
    }

    @Test func attributionNamesTheCertificateEachPinMatches() {
        let result = Self.lint(Self.afn(.publicKey, keys: ["root-ca.pem", "leaf-rekeyed.pem"]))
        #expect(result.forecast.attribution.map(\.position) == [2, nil])
        #expect(result.forecast.attribution[0].certificate == LibraryCerts.one("root-ca.pem"))
    }

    static func codes(_ result: LintResult) -> [String] { result.findings.map { "\($0.severity.rawValue) \($0.code)" } }

    @Test func aSingleLeafPinHasEveryFindingItShould() {
        #expect(Self.codes(Self.lint(Self.afn(.publicKey, keys: ["leaf.pem"]))) == [
            "error rotation-breaks",  // rekey-leaf
            "warning rotation-breaks",  // new-intermediate
            "info rotation-breaks",  // new-ca
            "error no-backup-pin", "warning too-few-pins",
        ])
    }

    @Test func aBackedUpPolicyHasOnlyTheUnusedPinNoted() {
        let result = Self.lint(Self.afn(.publicKey, keys: ["intermediate-ca.pem", "other-root-ca.pem"]))
        #expect(Self.codes(result) == ["info pin-unused"])
        #expect(result.findings[0].pin?.description == LibraryCerts.pin(of: "other-root-ca.pem"))
        #expect(!result.hasError)
    }

    @Test func aPinnedCertificateExpiringWithinTheHorizonIsSaid() {
        // certs/libraries/expired-root-ca.pem ended 2025-01-01, before the tests' time.
        let pinned = Self.afn(.certificate, certificates: ["intermediate-ca.pem", "expired-root-ca.pem"])
        #expect(Self.codes(Self.lint(pinned)).contains("warning pinned-certificate-expires"))
        let fresh = Self.afn(.certificate, certificates: ["intermediate-ca.pem", "root-ca.pem"])
        #expect(!Self.codes(Self.lint(fresh)).contains("warning pinned-certificate-expires"))
    }

    static func trustkit(expiration: String?) throws -> TrustKitPolicy {
        let date = try expiration.map { try Timestamp.parse($0).get() }
        return try TrustKitPolicy(domains: [("api.example.com", TrustKitDomainPolicy(
            publicKeyHashes: [key("leaf.pem"), key("leaf-rekeyed.pem")], expirationDate: date))])
    }

    @Test func aTrustKitPinSetExpiringWithinTheHorizonFailsOpenAndSaysSo() throws {
        let soon = Self.lint(try Self.trustkit(expiration: "2026-12-31"))
        let finding = try #require(soon.findings.first { $0.code == "pin-set-expires" })
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("2026-12-31") && finding.message.contains("fails open"))
        #expect(!Self.codes(Self.lint(try Self.trustkit(expiration: "2028-01-01"))).contains("warning pin-set-expires"))
        #expect(!Self.codes(Self.lint(try Self.trustkit(expiration: nil))).contains("warning pin-set-expires"))
        // A shorter horizon leaves it out.
        #expect(!Self.codes(Self.lint(try Self.trustkit(expiration: "2026-12-31"), horizon: 30)).contains("warning pin-set-expires"))
    }

    @Test func anAndroidPinSetExpiringWithinTheHorizonIsSaid() throws {
        let pins = NetworkSecurityConfig.PinSet(pins: [Self.key("leaf.pem"), Self.key("leaf-rekeyed.pem")],
                                                expiration: try Timestamp.parse("2027-01-15").get())
        let config = NetworkSecurityConfig(base: nil, domainConfigs: [NetworkSecurityConfig.Config(
            domains: [.init(name: "api.example.com", includeSubdomains: false)], trustAnchors: nil, pinSet: pins,
            children: [], location: "test.xml:1")], debugAnchors: nil, path: "test.xml")
        let result = Self.lint(NSCPolicy(config: config))
        #expect(Self.codes(result).contains("warning pin-set-expires"))
        #expect(result.pins.expiration == (try Timestamp.parse("2027-01-15").get()))
    }

    @Test func aChainRejectedTodayIsAnError() {
        let result = Self.lint(Self.afn(.publicKey, keys: ["leaf.pem"]), host: "other.example.org")
        #expect(Self.codes(result).first == "error rejected-today")
    }
}
