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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    CertificatesFuzz.check(Fuzz.bytes(data, size))
    return 0
}

#if !FUZZING
@main
enum Replay {
    static func main() { exit(Fuzz.replay(Array(CommandLine.arguments.dropFirst()), CertificatesFuzz.check)) }
}
#endif
