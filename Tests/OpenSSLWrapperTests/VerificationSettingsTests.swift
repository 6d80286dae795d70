import Foundation
import OpenSSLWrapper
import TestSupport
import Testing

/// DESIGN §2's settings hold on every run, and one that cannot be applied fails the run instead of being skipped.
@Suite("Verification settings")
struct VerificationSettingsTests {
    static let leaf = Certs.one("leaf.pem")
    static let intermediate = Certs.one("intermediate-ca.pem")

    static func verify(
        _ leaf: X509Certificate = leaf, untrusted: [X509Certificate] = [intermediate],
        anchors: [String] = ["root-ca.pem"], domain: String?, at time: Date = TestTime.now,
        checksServerIdentity: Bool = true
    ) throws -> ChainVerification {
        let store = try TrustStore.caFiles(anchors.map(Certs.path), directories: [])
        return ChainVerifier.verify(
            leaf: leaf, untrusted: untrusted, store: store,
            options: VerificationOptions(time: time, domain: domain, checksServerIdentity: checksServerIdentity))
    }

    @Test func theBaselineChainVerifiesForItsName() throws {
        let result = try Self.verify(domain: "pinning.test")
        #expect(result.isValid, "\(String(describing: result.failure))")
        #expect(result.chain.count == 3)
    }

    // A name OpenSSL refuses must not leave the leaf's name unchecked. From a C string OpenSSL would see only
    // "pinning.test" or "127.0.0.1", both of which the leaf carries: the evaluation would pass for a name never asked.
    @Test("A name OpenSSL refuses fails the run, naming it", arguments: [
        ("pinning.test\0.attacker.example", "OpenSSL refused the host name \"pinning.test\\0.attacker.example\""),
        ("127.0.0.1\0.attacker.example", "OpenSSL refused the host name \"127.0.0.1\\0.attacker.example\""),
        ("", "the domain to check is empty"),
        ("[]", "the domain to check is empty"),
    ])
    func refusedNameFailsTheRun(_ domain: String, message: String) throws {
        let result = try Self.verify(domain: domain)
        let failure = try #require(result.failure, "the name \(domain.debugDescription) went unchecked")
        #expect(failure.message.hasPrefix(message), "\(failure.message)")
        #expect(failure.certificate == nil)
        #expect(failure.isSettingFailure)
    }

    @Test("A time outside years 0001-9999 fails the run instead of being clamped", arguments: [
        1e13, -1e13, Double.infinity, -Double.infinity, Double.nan,
    ])
    func unsupportedTimeFailsTheRun(_ seconds: Double) throws {
        let result = try Self.verify(domain: "pinning.test", at: Date(timeIntervalSince1970: seconds))
        let failure = try #require(result.failure)
        // Clamped to 9999-12-31 the leaf (valid to 2125) would be "expired" (10): a verdict on a time never asked.
        #expect(failure.code == 1, "\(failure.code): \(failure.message)")
        #expect(failure.message.contains("outside the years 0001 to 9999"), "\(failure.message)")
        #expect(failure.isSettingFailure)
    }

    @Test func theLastSupportedSecondIsStillEvaluated() throws {
        let result = try Self.verify(domain: "pinning.test", at: Date(timeIntervalSince1970: 253_402_300_799))
        #expect(result.failure?.code == 10, "the leaf has expired by 9999: \(String(describing: result.failure))")
    }

    // cn-outside-permitted.pem: CN=outside.test, SAN IP:127.0.0.1 only, under a CA permitting DNS:permitted.test.
    // Without NEVER_CHECK_SUBJECT OpenSSL checks that CN against the subtree (openssl verify: error 47 at 0).
    @Test("The CN is never checked against name constraints, whatever the domain", arguments: [
        ("127.0.0.1", true), (nil, true), ("127.0.0.1", false), (nil, false),
    ] as [(String?, Bool)])
    func commonNameIsNeverReadForNameConstraints(_ domain: String?, checksServerIdentity: Bool) throws {
        let result = try Self.verify(
            Certs.one("limbo/cn-outside-permitted.pem"), untrusted: [Certs.one("limbo/permitting-ca.pem")],
            anchors: ["limbo/root-ca.pem"], domain: domain, checksServerIdentity: checksServerIdentity)
        #expect(result.isValid, "\(String(describing: result.failure))")
    }

    @Test func aSANOutsideThePermittedSubtreeIsStillRejected() throws {
        let result = try Self.verify(
            Certs.one("limbo/san-outside-permitted.pem"), untrusted: [Certs.one("limbo/permitting-ca.pem")],
            anchors: ["limbo/root-ca.pem"], domain: nil)
        #expect(result.failure?.code == 47, "\(String(describing: result.failure))")
        #expect(result.failure?.depth == 0)
    }
}
