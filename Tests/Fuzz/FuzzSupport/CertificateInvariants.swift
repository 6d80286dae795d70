import Foundation
import OpenSSLWrapper

/// What holds for every certificate pinctl parses, whichever path (PEM or DER) it came through.
public enum CertificateInvariants {
    /// A parsed certificate's DER parses again, on its own, to the same bytes and the same derived values.
    public static func requireRoundTrip(_ certificate: X509Certificate) {
        let again: X509Certificate
        do {
            again = try X509Certificate(derBytes: certificate.derBytes)
        } catch {
            Fuzz.require(false, "the DER of a parsed certificate does not parse again: \(error)")
            return
        }
        Fuzz.require(again.derBytes == certificate.derBytes, "DER changes on a second parse")
        Fuzz.require(again.spkiDER == certificate.spkiDER, "SubjectPublicKeyInfo changes on a second parse")
        Fuzz.require(
            again.subject == certificate.subject,
            "subject changes: \(certificate.subject) -> \(again.subject)")
        Fuzz.require(again.issuer == certificate.issuer, "issuer changes: \(certificate.issuer) -> \(again.issuer)")
        Fuzz.require(again.serialNumber == certificate.serialNumber, "serial number changes on a second parse")
        Fuzz.require(again.notBefore == certificate.notBefore, "notBefore changes on a second parse")
        Fuzz.require(again.notAfter == certificate.notAfter, "notAfter changes on a second parse")
        Fuzz.require(
            again.subjectAlternativeNames == certificate.subjectAlternativeNames,
            "SANs change: \(certificate.subjectAlternativeNames) -> \(again.subjectAlternativeNames)")
        Fuzz.require(again.keyDescription == certificate.keyDescription, "key description changes on a second parse")
        Fuzz.require(again.signatureAlgorithm == certificate.signatureAlgorithm, "signature algorithm changes")
    }

    /// The certificates, written out as concatenated DER and as a PEM bundle, read back the same through
    /// `CertificateParser.certificates(from:)`: the format detection must pick the right path for each.
    public static func requireRereadable(_ certificates: [X509Certificate]) {
        let der = certificates.flatMap(\.derBytes)
        requireSame(certificates, reading: der, "concatenated DER")
        let pem = certificates.map(\.pemString).joined()
        requireSame(certificates, reading: Array(pem.utf8), "PEM bundle")
    }

    /// One PEM block of type CERTIFICATE around `body`, 64 base64 characters a line.
    public static func pemBlock(_ body: [UInt8]) -> [UInt8] {
        let base64 = Array(Data(body).base64EncodedString().utf8)
        var block = Array("-----BEGIN CERTIFICATE-----\n".utf8)
        for start in stride(from: 0, to: base64.count, by: 64) {
            block += base64[start..<min(start + 64, base64.count)] + [UInt8(ascii: "\n")]
        }
        return block + Array("-----END CERTIFICATE-----\n".utf8)
    }

    private static func requireSame(_ certificates: [X509Certificate], reading bytes: [UInt8], _ form: String) {
        do {
            let again = try CertificateParser.certificates(from: bytes)
            Fuzz.require(
                again.map(\.derBytes) == certificates.map(\.derBytes),
                "\(certificates.count) certificate(s) written as \(form) read back as \(again.count) different one(s)")
        } catch {
            Fuzz.require(false, "\(certificates.count) certificate(s) written as \(form) do not read back: \(error)")
        }
    }
}
