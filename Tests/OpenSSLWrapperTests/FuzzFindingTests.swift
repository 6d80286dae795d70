import Foundation
import OpenSSLWrapper
import TestSupport
import Testing

/// Inputs the fuzz targets (Tests/Fuzz/) found mishandled, each fed to the parser the target fuzzes. The inputs
/// are committed as seeds of that target, so every fuzz run replays them too.
@Suite("Fuzz findings: certificate parsing")
struct FuzzFindingTests {
    /// A DER certificate whose subject holds "-----BEGIN " was taken for PEM text and rejected as holding none.
    @Test func derCertificateWithThePEMMarkerInItsSubjectReadsAsDER() throws {
        let der = FuzzSeeds.bytes("FuzzCertificateDER", "regression-pem-marker-in-subject.der")
        let certificates = try CertificateParser.certificates(from: der)
        #expect(certificates.count == 1)
        #expect(certificates.first?.derBytes == der)
        #expect(certificates.first?.subject == "CN=-----BEGIN marker in a name")  // openssl x509 -nameopt RFC2253
        let chain = try CertificateParser.certificates(from: Certs.bytes("leaf.der") + der)
        #expect(chain.map(\.derBytes) == [Certs.bytes("leaf.der"), der])
    }

    /// The other side of that fix: PEM text that starts with "0", the byte that opens DER, is still PEM.
    @Test func pemTextStartingWithTheDigitZeroReadsAsPEM() throws {
        let text = Array("0 is where this note starts\n".utf8) + Certs.bytes("leaf-chain.pem")
        let certificates = try CertificateParser.certificates(from: text)
        #expect(certificates.map(\.derBytes) == [Certs.bytes("leaf.der"), Certs.bytes("intermediate-ca.der")])
    }
}
