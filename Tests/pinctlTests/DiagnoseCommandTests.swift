import Foundation
import Testing
import TestSupport

/// `pinctl diagnose`: every hash kind and encoding, made by the openssl CLI, is named with the certificate it came
/// from and the right pin; a pin that is nothing exits 1, bad input 2, a failed connection 3.
@Suite struct DiagnoseCommandTests {
    /// leaf-chain.pem (leaf 0, intermediate 1) built to root-ca.pem (2, from the store).
    static let chain = ["--chain", "leaf-chain.pem"] + LiveRun.anchors
    static let files = ["leaf.pem", "intermediate-ca.pem", "root-ca.pem"]

    struct Case: Sendable, CustomTestStringConvertible {
        let hashed: PinVector.Hashed
        let digest: PinVector.Digest
        let encoding: PinVector.Encoding
        let certificate: Int
        var testDescription: String {
            "\(digest.rawValue) of \(hashed.rawValue) in \(encoding.rawValue), certificate \(certificate)"
        }
    }

    /// Every hash kind in every encoding; the certificate turns with them, so each position is met by each.
    static let cases: [Case] = PinVector.Hashed.allCases.enumerated().flatMap { h, hashed in
        PinVector.Digest.allCases.enumerated().flatMap { d, digest in
            PinVector.Encoding.allCases.enumerated().map { e, encoding in
                Case(hashed: hashed, digest: digest, encoding: encoding, certificate: (h + d + e) % 3)
            }
        }
    }

    /// `pinctl diagnose pins… --format json` on leaf-chain.pem: the result and one object per pin.
    func diagnose(_ pins: [String], _ source: [String] = chain) throws -> (PinctlProcess.Result, [[String: Any]]) {
        let result = try PinctlProcess.run(["diagnose"] + pins + source + ["--format", "json"])
        return (result, result.status <= 1 ? try LiveRun.objects(result.stdout) : [])
    }

    @Test(arguments: cases)
    func eachHashKindInEachEncodingIsNamedWithItsCertificateAndTheRightPin(_ test: Case) throws {
        let file = Self.files[test.certificate]
        let pin = try PinVector.make(test.hashed, test.digest, test.encoding, of: file)

        let (result, objects) = try diagnose([pin])

        #expect(result.status == 0, "\(result)")
        let object = try #require(objects.first)
        #expect(object["pin"] as? String == pin)
        #expect(object["explained"] as? Bool == true)
        let matches = try #require(object["matches"] as? [[String: Any]])
        try #require(matches.count == 1, "\(result)")
        #expect(matches[0]["certificate"] as? Int == test.certificate)
        #expect(matches[0]["hash"] as? String == test.digest.rawValue)
        #expect(matches[0]["hashed"] as? String == test.hashed.rawValue)
        #expect(matches[0]["encoding"] as? String == PinVector.reading(pin, writtenIn: test.encoding))
        #expect(matches[0]["use"] as? String == Certs.spkiPin(of: file))
        let correct = test.hashed == .spki && test.digest == .sha256 && test.encoding == .base64
        #expect(matches[0]["correct"] as? Bool == false, "no prefix: not yet a pin")
        #expect((matches[0]["message"] as? String)?.contains(correct ? "without the sha256/ prefix" : "use sha256/")
            == true, "\(matches[0])")
    }

    @Test func base64urlVectorsHoldItsOwnCharacters() throws {
        // Else the base64url rows would test base64 only.
        let urlSafe = try Self.cases.filter { $0.encoding == .base64url }.map { test in
            try PinVector.make(test.hashed, test.digest, .base64url, of: Self.files[test.certificate])
        }.filter { $0.contains("-") || $0.contains("_") }
        #expect(urlSafe.count >= 3)
    }

    @Test func textNamesWhatWasHashedAndTheCertificate() throws {
        let fingerprint = try ShellPipeline.output("openssl x509 -in intermediate-ca.pem -noout -fingerprint -sha256 "
            + "| cut -d= -f2")

        let result = try PinctlProcess.run(["diagnose", fingerprint] + Self.chain)

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            \(fingerprint)
              the SHA-256 of certificate 1's DER (its fingerprint), not of its SPKI, in colon-separated hex: use \
            \(Certs.spkiPin(of: "intermediate-ca.pem"))
              certificate 1: CN=pinctl Test Intermediate CA,O=pinctl Test [presented]

            """, "\(result)")
    }

    @Test func aCertificateTheStoreAddedIsSaidToComeFromIt() throws {
        let pin = try PinVector.make(.rawKey, .sha256, .base64, of: "root-ca.pem")

        let result = try PinctlProcess.run(["diagnose", pin] + Self.chain)

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("certificate 2's raw key (the uncompressed EC point iOS's "
            + "SecKeyCopyExternalRepresentation returns)"), "\(result)")
        #expect(result.stdout.contains("certificate 2: CN=pinctl Test Root CA,O=pinctl Test [from the trust store]"))
    }
}
