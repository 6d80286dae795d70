import Foundation
import FuzzSupport
import OpenSSLWrapper

/// Any bytes, as the DER of one certificate: read bare (the DER path) and as the body of a PEM block (the PEM
/// path, whose reader also accepts trust settings after the certificate). Mutating DER directly reaches the
/// ASN.1 that mutating base64 text rarely does, and the two paths must agree on a lone certificate.
enum CertificateDERFuzz {
    static func check(_ bytes: [UInt8]) {
        let bare = parsed(bytes)
        let wrapped = parsed(CertificateInvariants.pemBlock(bytes))
        Fuzz.require((wrapped?.count ?? 0) <= 1, "one PEM block read as \(wrapped?.count ?? 0) certificates")
        // Bytes with a PEM marker anywhere are read as PEM text, so only marker-free bytes must agree this way.
        if let bare, bare.count == 1, !contains(bytes, Array("-----BEGIN".utf8)) {
            Fuzz.require(
                wrapped?.map(\.derBytes) == bare.map(\.derBytes),
                "one DER certificate reads bare but not the same as a PEM block")
        }
        if let wrapped, wrapped.count == 1, wrapped[0].derBytes == bytes {
            Fuzz.require(
                bare?.map(\.derBytes) == wrapped.map(\.derBytes),
                "one DER certificate reads as a PEM block but not the same bare")
        }
        // Each distinct result re-reads the same (the two usually are one certificate: check it once).
        if let bare { CertificateInvariants.requireDERRereadable(bare) }
        if let wrapped, wrapped.map(\.derBytes) != bare?.map(\.derBytes) {
            CertificateInvariants.requireDERRereadable(wrapped)
        }
    }

    private static func contains(_ bytes: [UInt8], _ marker: [UInt8]) -> Bool {
        guard bytes.count >= marker.count else { return false }
        return (0...bytes.count - marker.count).contains { bytes[$0..<$0 + marker.count].elementsEqual(marker) }
    }

    /// The certificates in `bytes`, each checked, or nil when they are rejected with a reason.
    private static func parsed(_ bytes: [UInt8]) -> [X509Certificate]? {
        let certificates: [X509Certificate]
        do {
            certificates = try CertificateParser.certificates(from: bytes)
        } catch {
            Fuzz.require(!error.description.isEmpty, "a rejection without a reason")
            return nil
        }
        Fuzz.require(!certificates.isEmpty, "parsing succeeded with no certificate")
        return certificates
    }
}

@main
enum Main {
    static func main() { Fuzz.main(CertificateDERFuzz.check) }
}
