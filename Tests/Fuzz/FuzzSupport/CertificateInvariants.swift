import Foundation
import OpenSSLWrapper

/// What holds for every certificate pinctl parses, whichever path (PEM or DER) it came through.
///
/// Parsing is most of a run's cost (OpenSSL 3 decodes each public key through its provider framework), so each
/// check parses the certificates once more in all, not once per property.
public enum CertificateInvariants {
    /// The certificates' DER, concatenated, reads back through `CertificateParser.certificates(from:)` as the same
    /// bytes with the same derived values: DER detection works, and what pinctl derives depends on the DER alone.
    public static func requireDERRereadable(_ certificates: [X509Certificate]) {
        guard let again = reread(certificates.flatMap(\.derBytes), as: "concatenated DER", certificates) else { return }
        zip(certificates, again).forEach(requireSameValues)
    }

    /// The certificates, written as a PEM bundle, read back as the same certificates.
    public static func requirePEMRereadable(_ certificates: [X509Certificate]) {
        _ = reread(Array(certificates.map(\.pemString).joined().utf8), as: "a PEM bundle", certificates)
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

    private static func reread(
        _ bytes: [UInt8], as form: String, _ certificates: [X509Certificate]
    ) -> [X509Certificate]? {
        do {
            let again = try CertificateParser.certificates(from: bytes)
            Fuzz.require(
                again.map(\.derBytes) == certificates.map(\.derBytes),
                "\(certificates.count) certificate(s) written as \(form) read back as \(again.count) different one(s)")
            return again
        } catch {
            Fuzz.require(false, "\(certificates.count) certificate(s) written as \(form) do not read back: \(error)")
            return nil
        }
    }

    private static func requireSameValues(_ certificate: X509Certificate, _ again: X509Certificate) {
        Fuzz.require(again.spkiDER == certificate.spkiDER, "SubjectPublicKeyInfo changes on a second parse")
        Fuzz.require(
            again.subject == certificate.subject, "subject changes: \(certificate.subject) -> \(again.subject)")
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
}
