import OpenSSLWrapper
import Testing
import TestSupport

/// RSA and EC public keys are decoded by OpenSSL's built-in key methods (BuiltinKeyMethods.swift, #22), whatever
/// reads the certificate: pinctl's PEM and DER readers, or libssl in a handshake. Other key types are left to the
/// providers. Key types from `openssl x509 -noout -text` ("Public Key Algorithm").
@Suite("Built-in key methods", .serialized)
struct BuiltinKeyMethodsTests {
    @Test("RSA and EC keys from PEM and DER", arguments: [
        "leaf.pem",             // id-ecPublicKey
        "leaf-rsa.pem",         // rsaEncryption
        "root-ca.der",          // id-ecPublicKey, DER
        "limbo/rsa1024-leaf.pem", // rsaEncryption
    ])
    func rsaAndECKeysAreDecodedByTheBuiltinMethods(_ file: String) throws {
        let certificates = try CertificateParser.certificates(atPath: Certs.path(file))
        #expect(!certificates.isEmpty && certificates.allSatisfy { $0.keyIsBuiltin })
    }

    @Test("Other key types are decoded by the providers, as before", arguments: [
        "limbo/ed25519-leaf.pem", // ED25519
        "limbo/dsa-leaf.pem",     // dsaEncryption
    ])
    func otherKeyTypesAreLeftToTheProviders(_ file: String) throws {
        let certificate = try #require(try CertificateParser.certificates(atPath: Certs.path(file)).first)
        #expect(!certificate.keyIsBuiltin)
        // Decoded all the same: the key is described, not missing.
        #expect(!certificate.keyDescription.isEmpty)
    }

    /// libssl decodes what a server presents, and checks the server's TLS 1.3 CertificateVerify (RSA-PSS for an
    /// rsaEncryption key, ECDSA for P-256) with that key: the handshake completing is that check passing.
    @Test(arguments: [(["leaf-rsa.pem", "intermediate-ca.pem"], "leaf-rsa.key"), (["leaf-chain.pem"], "leaf.key")])
    func aPresentedChainsKeysAreBuiltinAndTheHandshakeChecksWithThem(_ chain: [String], _ key: String) throws {
        let server = try TLSTestServer(chainPEM: chain.map(Certs.path), keyPath: Certs.path(key))
        defer { server.stop() }
        let presented = try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: .init(
            serverName: "pinning.test", timeout: 5, family: .ipv4)).presented
        #expect(presented.count == 2)
        #expect(presented.allSatisfy { $0.keyIsBuiltin })
    }
}
