import Foundation
@testable import OpenSSLWrapper
import TestSupport
import Testing

/// A platform's store holds its roots as outlines, decoded when a chain asks for one (#33): the outline must name
/// and fingerprint a certificate exactly as the openssl CLI does, and a store of outlines must verify as the same
/// certificates listed would, decoding only what the path search reached.
@Suite("Certificate outlines")
struct CertificateOutlineTests {
    static func outline(_ file: String) throws -> CertificateOutline {
        let outlines = try #require(CertificateOutline.pem(Certs.bytes(file)))
        try #require(outlines.count == 1)
        return outlines[0]
    }

    static func openssl(_ file: String, _ argument: String) throws -> String {
        let result = try Subprocess.run("openssl", ["x509", "-noout", "-in", Certs.path(file), argument])
        try #require(result.status == 0)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: ["root-ca.pem", "intermediate-ca.pem", "leaf.pem", "other-root-ca.pem"])
    func anOutlineNamesAndFingerprintsTheCertificateAsTheOpenSSLCLIDoes(file: String) throws {
        let outline = try Self.outline(file)
        #expect(outline.subjectNameHash == UInt(try Self.openssl(file, "-subject_hash"), radix: 16))
        #expect(outline.issuerNameHash == UInt(try Self.openssl(file, "-issuer_hash"), radix: 16))
        let fingerprint = Certs.opensslField(file, ["-fingerprint", "-sha256"]).replacingOccurrences(of: ":", with: "")
        #expect(outline.sha256Fingerprint.map { String(format: "%02X", $0) }.joined() == fingerprint)
        #expect("sha256/" + Data(outline.spkiSHA256).base64EncodedString() == Certs.spkiPin(of: file))
    }

    @Test func anythingButPlainCertificatesIsNotOutlined() throws {
        let root = String(decoding: Certs.bytes("root-ca.pem"), as: UTF8.self)
        let trusted = root.replacingOccurrences(of: "CERTIFICATE", with: "TRUSTED CERTIFICATE")
        #expect(CertificateOutline.pem(Array(trusted.utf8)) == nil)
        let key = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
        #expect(CertificateOutline.pem(Array((root + key).utf8)) == nil)
        // A certificate cut short after its issuer: the fields up to the key cannot be read.
        let der = Certs.one("root-ca.pem").derBytes
        #expect(CertificateOutline(der: Array(der.prefix(120))) == nil)
        #expect(CertificateOutline.pem(Array("no PEM at all\n".utf8))?.isEmpty == true)
    }

    @Test func aStoreOfOutlinesVerifiesAsTheSameCertificatesListedAndDecodesOnlyTheRootReached() throws {
        let store = TrustStore.outlined(try [Self.outline("other-root-ca.pem"), Self.outline("root-ca.pem")],
                                        origin: "the test store")
        #expect(store.metAnchors.isEmpty)
        let result = ChainVerifier.verify(
            leaf: Certs.one("leaf.pem"), untrusted: [Certs.one("intermediate-ca.pem")], store: store,
            options: VerificationOptions(time: TestTime.now, domain: "pinning.test", checksServerIdentity: true))
        #expect(result.isValid, "\(String(describing: result.failure))")
        #expect(result.chain.last?.sha256Fingerprint == Certs.one("root-ca.pem").sha256Fingerprint)
        #expect(store.metAnchors.map(\.subject) == ["CN=pinctl Test Root CA,O=pinctl Test"])
        // Another root's chain is not trusted by a store without that root.
        let without = TrustStore.outlined([try Self.outline("other-root-ca.pem")], origin: "the test store")
        #expect(!ChainVerifier.verify(
            leaf: Certs.one("leaf.pem"), untrusted: [Certs.one("intermediate-ca.pem")], store: without,
            options: VerificationOptions(time: TestTime.now, domain: "pinning.test", checksServerIdentity: true)
        ).isValid)
        #expect(without.contains(Certs.one("other-root-ca.pem")))
        #expect(!without.contains(Certs.one("root-ca.pem")))
    }

    @Test func aStoreOfOutlinesIsKnownSoItsVerificationIsRemembered() throws {
        let store = TrustStore.outlined([try Self.outline("root-ca.pem")], origin: "the test store")
        let memo = VerificationMemo(capacity: 8)
        for _ in 0..<2 {
            #expect(try VerificationMemoTests.verify(at: TestTime.now, memo: memo, store: store).isValid)
        }
        #expect(memo.hits == 1)
    }

    /// A root whose fields up to its key read but which OpenSSL cannot decode whole (its signature's BIT STRING says
    /// 8 unused bits, which DER forbids) is left out of the store, as X509_STORE_load_file leaves it out, and every
    /// verification that met it says so: not a silent "untrusted".
    @Test func aRootThatCannotBeDecodedIsLeftOutAndNamed() throws {
        var der = Certs.one("root-ca.pem").derBytes
        // The signatureValue is the last field: 03, a one-byte length (an ECDSA P-256 signature is short) that runs
        // to the end, then the unused-bits byte.
        let bitString = try #require(der.indices.dropLast(2).last { index in
            der[index] == 0x03 && Int(der[index + 1]) == der.count - index - 2 && der[index + 2] == 0
        })
        der[bitString + 2] = 8
        #expect((try? X509Certificate(derBytes: der)) == nil)
        let outline = try #require(CertificateOutline(der: der))
        let store = TrustStore.outlined([outline], origin: "the test store")
        let result = ChainVerifier.verify(
            leaf: Certs.one("leaf.pem"), untrusted: [Certs.one("intermediate-ca.pem")], store: store,
            options: VerificationOptions(time: TestTime.now, domain: "pinning.test", checksServerIdentity: true))
        #expect(!result.isValid)
        #expect(result.warnings == ["the test store: the certificate CN=pinctl Test Root CA,O=pinctl Test cannot be "
            + "decoded: it is left out of the store; replace or remove that entry"])
    }
}
