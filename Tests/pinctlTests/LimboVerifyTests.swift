import Foundation
import Testing
import TestSupport

/// End-to-end: the built `pinctl verify` on certs/limbo/ chains and on a trust store holding an unreadable entry.
@Suite struct LimboVerifyTests {
    let base = ["verify", "--ca-file", "limbo/root-ca.pem", "--at", TestTime.nowText]

    func json(_ result: PinctlProcess.Result) throws -> [String: Any] {
        let line = try #require(result.stdout.split(separator: "\n").first)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func weakLeafKeyIsRejectedWithExitOneAndASentenceInTheJSON() throws {
        let result = try PinctlProcess.run(base + [
            "--chain", "limbo/rsa1024-leaf.pem", "--chain", "limbo/intermediate-ca.pem", "--host", "limbo.test",
            "--format", "json",
        ])
        #expect(result.status == 1, "\(result)")
        let reason = try #require(try json(result)["reason"] as? [String: Any])
        #expect(reason["code"] as? String == "untrusted-chain")
        #expect(reason["certificate"] as? Int == 0)
        #expect((reason["message"] as? String)?.hasPrefix(
            "untrusted chain: certificate #0 (CN=rsa1024.limbo.test): RSA key of 1024 bits; at least 2048 are required"
        ) == true, "\(result)")
    }

    @Test func sha1SignedIntermediateIsRejectedNamingIt() throws {
        let result = try PinctlProcess.run(base + [
            "--chain", "limbo/leaf-under-sha1-intermediate.pem", "--chain", "limbo/sha1-intermediate-ca.pem",
            "--host", "limbo.test",
        ])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains(
            "certificate #1 (CN=Limbo SHA-1 Intermediate CA,O=pinctl Limbo): signed with ecdsa-with-SHA1"), "\(result)")
    }

    @Test func wildcardInsideAnExcludedSubtreeIsRejectedEvenForTheExcludedName() throws {
        // openssl verify -verify_hostname test.example.com accepts this chain (scripts/make-limbo-certs.sh).
        let result = try PinctlProcess.run(base + [
            "--chain", "limbo/wildcard-in-excluded.pem", "--chain", "limbo/excluding-ca.pem",
            "--host", "test.example.com",
        ])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains(
            "the wildcard DNS:*.example.com covers names in the DNS subtree test.example.com"), "\(result)")
    }

    /// Name constraints out of RFC 5280 §4.2.1.10's form, which OpenSSL applies as written (openssl verify accepts
    /// each chain, scripts/make-limbo-certs.sh): refused, as x509-limbo's rfc5280::nc cases expect (they were false
    /// "trusted").
    @Test("Name constraints and certificates out of RFC 5280's form are refused", arguments: [
        ("limbo/leaf-under-noncritical-nc.pem", "limbo/noncritical-nc-ca.pem", "limbo.test",
         "#1 (CN=Limbo Non-critical NC CA,O=pinctl Limbo): name constraints not marked critical"),
        ("limbo/leaf-under-leading-period-nc.pem", "limbo/leading-period-nc-ca.pem", "a.limbo.test",
         "the DNS name constraint .limbo.test has a leading period"),
        ("limbo/leaf-with-nc.pem", "limbo/intermediate-ca.pem", "limbo.test",
         "name constraints in a certificate that is not a CA"),
        // Forms RFC 5280 and the Baseline Requirements refuse (x509-limbo's webpki::forbidden-rsa-* and
        // webpki::ee-basicconstraints-ca were false "trusted").
        ("limbo/rsa2052-leaf.pem", "limbo/intermediate-ca.pem", "limbo.test",
         "RSA key of 2052 bits, not a whole number of bytes"),
        ("limbo/ca-leaf.pem", "limbo/intermediate-ca.pem", "limbo.test",
         "the server's certificate is a CA certificate"),
        ("limbo/serial-zero-leaf.pem", "limbo/intermediate-ca.pem", "limbo.test", "a serial number of zero"),
    ])
    func nameConstraintsOutOfFormAreRefused(_ leaf: String, _ issuer: String, _ host: String, _ saying: String)
        throws
    {
        let result = try PinctlProcess.run(base + ["--chain", leaf, "--chain", issuer, "--host", host])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("REJECTED"), "\(result)")
        #expect(result.stdout.contains(saying), "\(result)")
    }

    /// notAfter is inclusive (RFC 5280 §4.1.2.5; Apple, Android and browsers judge so): OpenSSL 3.0 calls the chain
    /// expired at that very second (openssl verify: error 10, scripts/make-limbo-certs.sh), as it did x509-limbo's
    /// rfc5280::validity::notafter-exact. One second later it is expired for pinctl too.
    @Test("A leaf is valid through the second of its notAfter, and expired after it", arguments: [
        ("2026-06-01T00:00:00Z", Int32(0), "TRUSTED"),
        ("2026-06-01T00:00:01Z", Int32(1), "expired on 2026-06-01T00:00:00Z"),
    ])
    func notAfterIsInclusive(_ time: String, _ status: Int32, _ saying: String) throws {
        let result = try PinctlProcess.run([
            "verify", "--ca-file", "limbo/root-ca.pem", "--at", time, "--chain", "limbo/expires-at-evaluation-leaf.pem",
            "--chain", "limbo/intermediate-ca.pem", "--host", "limbo.test",
        ])
        #expect(result.status == status, "\(result)")
        #expect(result.stdout.contains(saying), "\(result)")
    }

    /// A CA without a key usage extension may sign (RFC 5280 §6.1.4 (n) checks keyCertSign only when it is there;
    /// Apple and Android agree). OpenSSL's strict mode alone refuses it (openssl verify: error 92,
    /// scripts/make-limbo-certs.sh), as it did x509-limbo's crl::issuer-no-keyusage-extension.
    @Test("A CA without key usage anchors a chain or issues in one", arguments: [
        ("limbo/no-ku-root-ca.pem", ["limbo/leaf-under-no-ku-root.pem"]),
        ("limbo/root-ca.pem", ["limbo/leaf-under-no-ku-intermediate.pem", "limbo/no-ku-intermediate-ca.pem"]),
    ])
    func caWithoutKeyUsage(_ anchor: String, _ chain: [String]) throws {
        let result = try PinctlProcess.run(["verify", "--ca-file", anchor, "--at", TestTime.nowText, "--host",
                                            "limbo.test"] + chain.flatMap { ["--chain", $0] })
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("TRUSTED"), "\(result)")
    }

    @Test("A CN outside the permitted subtree does not matter, with an IP host or none",
        arguments: [["--host", "127.0.0.1"], []])
    func commonNameOutsideThePermittedSubtreePasses(_ host: [String]) throws {
        let result = try PinctlProcess.run(base + [
            "--chain", "limbo/cn-outside-permitted.pem", "--chain", "limbo/permitting-ca.pem",
        ] + host)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("TRUSTED"), "\(result)")
    }

    @Test("An unreadable entry of a hashed store is a warning, not a crash",
        arguments: ["--ca-path", "SSL_CERT_DIR"])
    func unreadableStoreEntry(_ via: String) throws {
        try TemporaryDirectory.with { directory in
            try MalformedStore.make(in: directory.path)
            let arguments = ["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test", "--at", TestTime.nowText]
            let result: PinctlProcess.Result
            let origin: String
            if via == "--ca-path" {
                result = try PinctlProcess.run(arguments + ["--ca-path", directory.path])
                origin = "the CA directory \(directory.path)"
            } else {
                // The system store is SSL_CERT_DIR alone here: SSL_CERT_FILE names a file that does not exist.
                result = try PinctlProcess.run(arguments, environment: [
                    "SSL_CERT_DIR": directory.path, "SSL_CERT_FILE": directory.path("absent.pem"),
                ])
                origin = "the system trust store"
            }
            #expect(result.status == 1, "\(result)")
            let warning = "warning: \(origin): the certificate \(MalformedStore.subject) cannot be read"
            #expect(result.stderr.contains(warning), "\(result)")
            #expect(result.stdout.contains("untrusted chain: certificate \(MalformedStore.subject) (a trust store "
                + "entry that cannot be read): format error in certificate's notBefore field"), "\(result)")
        }
    }
}
