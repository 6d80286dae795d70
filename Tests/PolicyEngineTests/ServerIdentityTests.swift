import Foundation
import PolicyEngine
import TestSupport
import Testing

/// Host names, IP literals and TLS-server fitness (validatesDomainName), and hash pins in public-key mode.
@Suite("Server identity and hash pins")
struct ServerIdentityTests {
    static let leafChain = ["leaf.pem", "intermediate-ca.pem"]

    @Test("The leaf's IP SANs match IP literal domains", arguments: ["127.0.0.1", "::1", "[::1]", "0:0:0:0:0:0:0:1"])
    func ipLiteralInTheLeafSANsPasses(_ domain: String) throws {
        let evaluation = try evaluate(Self.leafChain, for: domain, with: policy(.none))
        expectVerdict(evaluation, is: .trusted)
    }

    @Test("An IP literal the leaf does not name is a hostname mismatch", arguments: ["10.0.0.1", "2001:db8::1"])
    func ipLiteralNotInTheLeafSANsIsAMismatch(_ domain: String) throws {
        let evaluation = try evaluate(Self.leafChain, for: domain, with: policy(.none))
        expectVerdict(evaluation, is: .rejected("hostname-mismatch", at: 0))
        let message = evaluation.rejectionMessage ?? ""
        #expect(message.contains("IP address mismatch"), "\(message)")
        #expect(message.contains("not valid for \(domain)"), "\(message)")
        #expect(message.contains("IP:127.0.0.1"), "\(message)")
    }

    @Test func anIPLiteralNeverMatchesADNSName() throws {
        // 127.0.0.1 is an IP SAN of the leaf; "localhost" is a DNS SAN. Neither stands in for the other.
        let evaluation = try evaluate(["wrong-host.pem", "intermediate-ca.pem"], for: "127.0.0.1", with: policy(.none))
        expectVerdict(evaluation, is: .rejected("hostname-mismatch", at: 0))
    }

    @Test("DNS names match case-insensitively", arguments: ["pinning.test", "PINNING.TEST", "localhost"])
    func dnsNameInTheLeafSANsPasses(_ domain: String) throws {
        expectVerdict(try evaluate(Self.leafChain, for: domain, with: policy(.none)), is: .trusted)
    }

    @Test func hostnameMismatchListsTheNamesTheLeafCarries() throws {
        let evaluation = try evaluate(["wrong-host.pem", "intermediate-ca.pem"], with: policy(.none))
        expectVerdict(evaluation, is: .rejected("hostname-mismatch", at: 0))
        #expect(evaluation.rejectionMessage?.contains("host name mismatch") == true)
        #expect(evaluation.rejectionMessage?.contains("not valid for pinning.test; it names DNS:wrong.test") == true)
    }

    @Test func commonNameIsNeverUsedAsAHostName() throws {
        let evaluation = try evaluate(["cn-only.pem", "intermediate-ca.pem"], with: policy(.none))
        expectVerdict(evaluation, is: .rejected("hostname-mismatch", at: 0))
        let message = evaluation.rejectionMessage ?? ""
        #expect(message.contains("no subject alternative names (a common name is never used)"), "\(message)")
    }

    @Test("A wildcard covers exactly one label", arguments: [
        ("foo.pinning.test", true), ("FOO.pinning.test", true),
        ("pinning.test", false), ("a.b.pinning.test", false), ("foo.other.test", false),
    ])
    func wildcardLeaf(_ domain: String, matches: Bool) throws {
        let evaluation = try evaluate(["wildcard.pem", "intermediate-ca.pem"], for: domain, with: policy(.none))
        expectVerdict(evaluation, is: matches ? .trusted : .rejected("hostname-mismatch", at: 0))
    }

    @Test func anEmptyDomainIsRefusedRatherThanLeftUnchecked() throws {
        let evaluation = try evaluate(Self.leafChain, for: "", with: policy(.none))
        expectVerdict(evaluation, is: .rejected("untrusted-chain"))
        #expect(evaluation.rejectionMessage == "untrusted chain: the domain to check is empty: no name was checked, "
            + "so nothing is trusted (OpenSSL error 1, anchors: the CA file \(Certs.path("root-ca.pem")))")
    }

    @Test func namesAreNotCheckedWithoutDomainValidation() throws {
        let evaluation = try evaluate(
            Self.leafChain, for: "10.0.0.1", with: policy(.none, validatesDomainName: false))
        expectVerdict(evaluation, is: .trusted)
    }

    @Test("A client-auth leaf is refused for TLS servers only when the domain is validated",
        arguments: [true, false])
    func clientAuthLeafIsNotForTLSServers(validatesDomainName: Bool) throws {
        let evaluation = try evaluate(
            ["client-auth.pem", "intermediate-ca.pem"], with: policy(.none, validatesDomainName: validatesDomainName))
        expectVerdict(evaluation, is: validatesDomainName ? .rejected("not-for-tls-server", at: 0) : .trusted)
        if validatesDomainName {
            #expect(evaluation.rejectionMessage?.contains("does not allow TLS server authentication") == true)
        }
    }

    @Test func leafFitnessIsCheckedEvenWithoutADomain() throws {
        let evaluation = try evaluate(["client-auth.pem", "intermediate-ca.pem"], for: nil, with: policy(.none))
        expectVerdict(evaluation, is: .rejected("not-for-tls-server", at: 0))
    }

    @Test func certificateModeChecksLeafFitnessWithInvalidCertificatesAllowed() throws {
        let evaluation = try evaluate(
            ["client-auth.pem", "intermediate-ca.pem"],
            with: policy(.certificate, pinning: ["client-auth.pem"], allowInvalid: true))
        expectVerdict(evaluation, is: .rejected("not-for-tls-server", at: 0))
    }

    @Test func leafFitnessComesBeforeTheChainAndTheName() throws {
        // client-auth.pem without its intermediate, for a name it lacks: the purpose is reported first.
        let evaluation = try evaluate(["client-auth.pem"], for: "wrong.test", with: policy(.none))
        expectVerdict(evaluation, is: .rejected("not-for-tls-server", at: 0))
    }

    @Test func chainFailureComesBeforeTheName() throws {
        let evaluation = try evaluate(["wrong-host.pem"], with: policy(.none))
        expectVerdict(evaluation, is: .rejected("untrusted-chain", at: 0))
        #expect(evaluation.rejectionMessage?.contains("OpenSSL error 20 at depth 0") == true)
    }

    @Test func nameComesBeforeTheDates() throws {
        let evaluation = try evaluate(["expired.pem", "intermediate-ca.pem"], for: "wrong.test", with: policy(.none))
        expectVerdict(evaluation, is: .rejected("hostname-mismatch", at: 0))
    }

    @Test func selfSignedLeafIsAnUntrustedChainWithOpenSSLsErrorAndDepth() throws {
        let evaluation = try evaluate(["self-signed.pem"], with: policy(.none))
        expectVerdict(evaluation, is: .rejected("untrusted-chain", at: 0))
        let message = evaluation.rejectionMessage ?? ""
        #expect(message.contains("self-signed certificate (OpenSSL error 18 at depth 0"), "\(message)")
        #expect(message.contains("anchors: the CA file \(Certs.path("root-ca.pem"))"), "\(message)")
    }

    // MARK: Hash pins

    /// The pin of a fixture file as catalogued in certs/spki-pins.txt, parsed as a `.pin` line would be.
    static func catalogued(_ file: String) throws -> PublicKeyPin {
        let lines = try String(contentsOfFile: Certs.path("spki-pins.txt"), encoding: .utf8).split(separator: "\n")
        let line = try #require(lines.first { $0.hasPrefix(file + " ") })
        let text = String(line.split(separator: " ")[1])
        return PublicKeyPin(hash: try PinFormat.parse(text).get(), source: PinSource("spki-pins.txt \(file)"))
    }

    @Test("Hash pins from spki-pins.txt serve public-key mode", arguments: [
        ("leaf.pem", 0), ("intermediate-ca.pem", 1), ("root-ca.pem", 2),
    ])
    func hashPinServesPublicKeyMode(_ file: String, index: Int) throws {
        let pin = try Self.catalogued(file)
        let evaluation = try evaluate(Self.leafChain, with: policy(.publicKey, hashes: [pin]))
        expectVerdict(evaluation, is: .pinned(at: index))
        #expect(evaluation.matchedPin?.source == PinSource("spki-pins.txt \(file)"))
    }

    @Test func hashPinOfTheOldLeafMatchesTheRenewedLeafButNotTheRekeyedOne() throws {
        let pin = try Self.catalogued("leaf.pem")
        let renewed = try evaluate(["leaf-renewed.pem", "intermediate-ca.pem"], with: policy(.publicKey, hashes: [pin]))
        expectVerdict(renewed, is: .pinned(at: 0))
        let rekeyed = try evaluate(["leaf-rekeyed.pem", "intermediate-ca.pem"], with: policy(.publicKey, hashes: [pin]))
        expectVerdict(rekeyed, is: .rejected("public-key-not-pinned"))
    }

    @Test func publicKeyNotPinnedListsTheChainAndThePins() throws {
        let pin = try Self.catalogued("other-leaf.pem")
        let evaluation = try evaluate(Self.leafChain, with: policy(.publicKey, hashes: [pin]))
        expectVerdict(evaluation, is: .rejected("public-key-not-pinned"))
        let message = evaluation.rejectionMessage ?? ""
        #expect(message.contains("matches the 1 pinned key(s)"), "\(message)")
        #expect(message.contains("#0 \(PinFormat.pin(of: Certs.one("leaf.pem"))) CN=pinning.test"), "\(message)")
        #expect(message.contains("#2 \(PinFormat.pin(of: Certs.one("root-ca.pem")))"), "\(message)")
        #expect(message.contains("\(pin.text) (spki-pins.txt other-leaf.pem)"), "\(message)")
    }

    @Test func pinnedCertificateKeysAndHashPinsServeTogether() throws {
        let hash = try Self.catalogued("intermediate-ca.pem")
        let evaluation = try evaluate(
            Self.leafChain, with: policy(.publicKey, pinning: ["other-leaf.pem"], hashes: [hash]))
        expectVerdict(evaluation, is: .pinned(at: 1))
    }
}
