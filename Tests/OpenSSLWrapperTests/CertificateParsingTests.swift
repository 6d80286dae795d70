import Foundation
import OpenSSLWrapper
import TestSupport
import Testing

/// Checks that parsing `bytes` throws, and that the reason says `fragment`.
func expectParseError(
    _ bytes: [UInt8], saying fragment: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let error = #expect(throws: CertificateParseError.self, sourceLocation: sourceLocation) {
        try CertificateParser.certificates(from: bytes)
    }
    #expect(
        error?.reason.contains(fragment) == true, "reason: \(error?.reason ?? "none")", sourceLocation: sourceLocation)
}

@Suite("Certificate parsing")
struct CertificateParsingTests {
    // MARK: What parses

    @Test("DER and PEM files of one certificate parse to the same certificate", arguments: [
        ("leaf.der", "leaf.pem"), ("root-ca.der", "root-ca.pem"), ("intermediate-ca.der", "intermediate-ca.pem"),
    ])
    func derFileParsesLikeItsPEM(_ der: String, _ pem: String) throws {
        let fromDER = try CertificateParser.certificates(atPath: Certs.path(der))
        let fromPEM = try CertificateParser.certificates(atPath: Certs.path(pem))
        #expect(fromDER.count == 1)
        #expect(fromDER == fromPEM)
        #expect(fromDER[0].derBytes == Certs.bytes(der), "the DER is kept byte for byte")
    }

    @Test func pemBundleParsesEveryCertificateInOrder() throws {
        let chain = try CertificateParser.certificates(atPath: Certs.path("leaf-fullchain.pem"))
        #expect(chain.map(\.subject) == [
            "CN=pinning.test", "CN=pinctl Test Intermediate CA,O=pinctl Test", "CN=pinctl Test Root CA,O=pinctl Test",
        ])
    }

    @Test func concatenatedDERCertificatesAllParse() throws {
        let bytes = Certs.bytes("leaf.der") + Certs.bytes("intermediate-ca.der")
        let chain = try CertificateParser.certificates(from: bytes)
        #expect(chain == [Certs.one("leaf.pem"), Certs.one("intermediate-ca.pem")])
    }

    @Test func privateKeyBeforeTheCertificateIsSkipped() throws {
        let certificates = try CertificateParser.certificates(from: Certs.bytes("leaf.key") + Certs.bytes("leaf.pem"))
        #expect(certificates == [Certs.one("leaf.pem")])
    }

    @Test func textAroundPEMBlocksIsIgnored() throws {
        let bytes = Array("subject=CN=pinning.test\n".utf8) + Certs.bytes("leaf.pem") + Array("trailing notes\n".utf8)
        #expect(try CertificateParser.certificates(from: bytes) == [Certs.one("leaf.pem")])
    }

    @Test func trustedCertificatePEMParsesToThePlainCertificate() throws {
        try TemporaryDirectory.with { directory in
            let output = directory.path("trusted.pem")
            let openssl = try Subprocess.run(
                "openssl",
                ["x509", "-in", Certs.path("leaf.pem"), "-trustout", "-addtrust", "serverAuth", "-out", output])
            try #require(openssl.status == 0, "\(openssl)")
            let text = try String(contentsOfFile: output, encoding: .utf8)
            try #require(text.hasPrefix("-----BEGIN TRUSTED CERTIFICATE-----"))

            let certificates = try CertificateParser.certificates(atPath: output)
            // The trust settings (X509_AUX) are not part of the certificate: DER, fingerprint and SPKI are unchanged.
            #expect(certificates == [Certs.one("leaf.pem")])
            #expect(certificates.first?.spkiSHA256 == Certs.one("leaf.pem").spkiSHA256)
        }
    }

    // MARK: What does not

    @Test func emptyInputIsAnError() {
        expectParseError([], saying: "empty")
    }

    @Test func onlyAPrivateKeyIsAnError() throws {
        let error = #expect(throws: CertificateParseError.self) {
            try CertificateParser.certificates(atPath: Certs.path("leaf.key"))
        }
        #expect(error?.path == Certs.path("leaf.key"))
        #expect(error?.reason.contains("no certificate") == true)
        #expect(error?.description.hasPrefix(Certs.path("leaf.key") + ": ") == true)
    }

    @Test func gibberishIsAnError() {
        expectParseError(Array("this is not a certificate\n".utf8), saying: "neither a PEM nor a DER certificate")
    }

    @Test func truncatedDERIsAnError() {
        let der = Certs.bytes("leaf.der")
        expectParseError(Array(der.prefix(der.count / 2)), saying: "neither a PEM nor a DER certificate")
        expectParseError(Array(der.dropLast()), saying: "neither a PEM nor a DER certificate")
    }

    @Test func derWithTrailingJunkIsAnError() {
        expectParseError(Certs.bytes("leaf.der") + [0x00, 0x01, 0x02], saying: "malformed DER after certificate #1")
        expectParseError(Certs.bytes("leaf.der") + Array("junk".utf8), saying: "after certificate #1")
    }

    @Test func singleDERCertificateInitializerRejectsTrailingBytes() throws {
        #expect(throws: (any Error).self) { try X509Certificate(derBytes: Certs.bytes("leaf.der") + [0]) }
        #expect(try X509Certificate(derBytes: Certs.bytes("leaf.der")) == Certs.one("leaf.pem"))
    }

    @Test func corruptedPEMBodyIsAnError() {
        var text = String(decoding: Certs.bytes("leaf.pem"), as: UTF8.self)
        text = text.replacingOccurrences(of: "MII", with: "M!I")
        expectParseError(Array(text.utf8), saying: "malformed PEM certificate #1")
    }

    @Test func goodCertificateThenACorruptOneIsAnError() {
        let corrupt = "-----BEGIN CERTIFICATE-----\nAAAA!!!!\n-----END CERTIFICATE-----\n"
        expectParseError(Certs.bytes("leaf.pem") + Array(corrupt.utf8), saying: "certificate #2")
    }

    @Test("Hostile bytes throw, never trap", arguments: [
        [0x30], [0x30, 0x80], [0x30, 0x82, 0xFF, 0xFF], [0x30, 0x03, 0x02, 0x01, 0x01], [0xFF, 0xFF, 0xFF, 0xFF],
        Array("-----BEGIN CERTIFICATE-----\n".utf8), Array("-----BEGIN ".utf8),
        Array("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".utf8),
    ] as [[UInt8]])
    func hostileBytesThrow(_ bytes: [UInt8]) {
        #expect(throws: CertificateParseError.self) { try CertificateParser.certificates(from: bytes) }
    }

    @Test func missingFileAndDirectoryAreErrorsNamingThePath() throws {
        try TemporaryDirectory.with { directory in
            let missing = directory.path("absent.pem")
            let noFile = #expect(throws: CertificateParseError.self) {
                try CertificateParser.certificates(atPath: missing)
            }
            #expect(noFile?.description == "\(missing): no such file")
            let isDirectory = #expect(throws: CertificateParseError.self) {
                try CertificateParser.certificates(atPath: directory.path)
            }
            #expect(isDirectory?.description == "\(directory.path): is a directory, not a file")
            let empty = try directory.write("empty.pem", bytes: [])
            let emptyError = #expect(throws: CertificateParseError.self) {
                try CertificateParser.certificates(atPath: empty)
            }
            #expect(emptyError?.description == "\(empty): empty file: no certificate")
        }
    }

    // MARK: What a certificate says

    /// Every `FILE sha256/BASE64` line of certs/spki-pins.txt.
    static let cataloguedPins: [(file: String, pin: String)] = {
        let text = (try? String(contentsOfFile: Certs.path("spki-pins.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            return (String(fields[0]), String(fields[1]))
        }
    }()

    @Test func spkiPinsCatalogueListsEveryCertificate() {
        #expect(Self.cataloguedPins.count == 18)
    }

    @Test("SPKI SHA-256 matches certs/spki-pins.txt", arguments: cataloguedPins.map(\.file))
    func spkiHashMatchesTheCatalogue(_ file: String) throws {
        let expected = try #require(Self.cataloguedPins.first { $0.file == file }?.pin)
        let certificate = Certs.one(file)
        let base64 = Data(certificate.spkiSHA256).base64EncodedString()
        #expect("sha256/" + base64 == expected)
    }

    @Test func leafFieldsReadAsOpenSSLPrintsThem() {
        // Serial and fingerprint as the openssl CLI prints them, so regenerating the fixtures keeps this test valid.
        let leaf = Certs.one("leaf.pem")
        #expect(leaf.subject == "CN=pinning.test")
        #expect(leaf.issuer == "CN=pinctl Test Intermediate CA,O=pinctl Test")
        #expect(leaf.serialNumber == Certs.opensslField("leaf.pem", ["-serial"]))
        #expect(leaf.subjectAlternativeNames == ["DNS:pinning.test", "DNS:localhost", "IP:127.0.0.1", "IP:::1"])
        #expect(leaf.keyDescription == "ECDSA P-256")
        #expect(leaf.signatureAlgorithm == "ecdsa-with-SHA256")
        #expect(leaf.sha256Fingerprint.map { String(format: "%02X", $0) }.joined()
            == Certs.opensslField("leaf.pem", ["-fingerprint", "-sha256"]).replacingOccurrences(of: ":", with: ""))
        #expect(leaf.commonNameOrSubject == "pinning.test")
        #expect(!leaf.isSelfSigned)
    }

    @Test("Key types and signature algorithms", arguments: [
        ("leaf-rsa.pem", "RSA 2048", "ecdsa-with-SHA256"),
        ("other-root-ca.pem", "RSA 2048", "sha256WithRSAEncryption"),
        ("other-leaf.pem", "RSA 2048", "sha256WithRSAEncryption"),
        ("root-ca.pem", "ECDSA P-256", "ecdsa-with-SHA256"),
    ])
    func keyTypeAndSignatureAlgorithm(_ file: String, key: String, signature: String) {
        let certificate = Certs.one(file)
        #expect(certificate.keyDescription == key)
        #expect(certificate.signatureAlgorithm == signature)
    }

    @Test func rootFieldsNameItselfAsIssuer() {
        let root = Certs.one("root-ca.pem")
        #expect(root.subject == "CN=pinctl Test Root CA,O=pinctl Test")
        #expect(root.issuer == root.subject)
        #expect(root.serialNumber == Certs.opensslField("root-ca.pem", ["-serial"]))
        #expect(root.subjectAlternativeNames.isEmpty)
        #expect(root.isSelfSigned)
        #expect(Certs.one("self-signed.pem").isSelfSigned)
    }

    @Test("Subject alternative names", arguments: [
        ("wildcard.pem", ["DNS:*.pinning.test"]), ("wrong-host.pem", ["DNS:wrong.test"]), ("cn-only.pem", []),
    ] as [(String, [String])])
    func subjectAlternativeNames(_ file: String, names: [String]) {
        #expect(Certs.one(file).subjectAlternativeNames == names)
    }

    @Test func expiredLeafValidityIs2020To2021() throws {
        let expired = Certs.one("expired.pem")
        let utc = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
        #expect(expired.notBefore == (try Date("2020-01-01T00:00:00Z", strategy: utc)))
        #expect(expired.notAfter == (try Date("2021-01-01T00:00:00Z", strategy: utc)))
        #expect(expired.notAfter.timeIntervalSince1970 == 1_609_459_200)
    }
}
