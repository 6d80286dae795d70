import Foundation
import OpenSSLWrapper
import Testing
import TestSupport

/// What a server staples is untrusted bytes: anything that is not a successful, signed OCSP response about the leaf
/// is judged invalid, never trusted and never a trap. (s_server refuses to staple a file it cannot parse, so garbage
/// staples are judged here rather than end to end.)
@Suite struct OCSPResponseJudgementTests {
    static func pair() throws -> (X509Certificate, X509Certificate) {
        let leaf = try #require(try CertificateParser.certificates(atPath: Certs.path("leaf.pem")).first)
        let issuer = try #require(try CertificateParser.certificates(atPath: Certs.path("intermediate-ca.pem")).first)
        return (leaf, issuer)
    }

    @Test(arguments: [[], Array("not an OCSP response".utf8), [0x30, 0x82, 0xFF, 0xFF, 0x0A], [0x30, 0x00]])
    func bytesThatAreNotAnOCSPResponseAreMalformed(bytes: [UInt8]) throws {
        let (leaf, issuer) = try Self.pair()
        let outcome = OCSPExchange.judge(bytes, certificate: leaf, issuer: issuer, at: TestTime.now)
        guard case .invalid(.malformed) = outcome else {
            Issue.record("judged \(outcome)")
            return
        }
    }

    /// OCSPResponse { responseStatus tryLater(3) } with no responseBytes: what a responder in trouble sends.
    @Test func anUnsuccessfulResponseStatusIsNamed() throws {
        let (leaf, issuer) = try Self.pair()
        let outcome = OCSPExchange.judge([0x30, 0x03, 0x0A, 0x01, 0x03], certificate: leaf, issuer: issuer,
                                         at: TestTime.now)
        #expect(outcome == .invalid(.errorStatus("trylater")))
    }

    @Test func anOCSPRequestNamesTheLeafAndItsIssuer() throws {
        let (leaf, issuer) = try Self.pair()
        let request = try #require(OCSPExchange.request(for: leaf, issuer: issuer))
        // A SEQUENCE (OCSPRequest) whose CertID carries the leaf's serial: checked by the openssl CLI below.
        #expect(request.first == 0x30)
        try TemporaryDirectory.with { directory in
            let path = try directory.write("request.der", bytes: request)
            let text = try PinctlProcess.runShell("openssl ocsp -reqin '\(path)' -req_text")
            let serial = Certs.opensslField("leaf.pem", ["-serial"])
            #expect(text.stdout.contains("Serial Number: \(serial)"), "\(text)")
        }
    }
}
