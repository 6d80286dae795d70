import Foundation
import FuzzSupport
import OpenSSLWrapper

/// Any bytes, as a certificate file: PEM bundles with other blocks and text around them, or concatenated DER.
enum CertificatesFuzz {
    static func check(_ bytes: [UInt8]) {
        let certificates: [X509Certificate]
        do {
            certificates = try CertificateParser.certificates(from: bytes)
        } catch {
            Fuzz.require(!error.description.isEmpty, "a rejection without a reason")
            return
        }
        Fuzz.require(!certificates.isEmpty, "parsing succeeded with no certificate")
        CertificateInvariants.requireDERRereadable(certificates)
        CertificateInvariants.requirePEMRereadable(certificates)
    }
}

@main
enum Main {
    static func main() { Fuzz.main(CertificatesFuzz.check) }
}
