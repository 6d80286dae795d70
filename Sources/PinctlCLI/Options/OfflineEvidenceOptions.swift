import ArgumentParser
import Checking
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// `--crl-file` and `--ocsp-response` (`verify`, `lint --chain`): the revocation evidence a check of certificate
/// files has instead of the network and the handshake.
struct OfflineEvidenceOptions: ParsableArguments {
    @Option(name: .customLong("crl-file"), help: ArgumentHelp(
        "Once the chain is trusted, check the leaf against this CRL of its issuer (DER or PEM), for every app; "
            + "repeatable.", valueName: "file"))
    var crlFiles: [String] = []

    @Option(name: .customLong("ocsp-response"), help: ArgumentHelp(
        "An OCSP response for the leaf (DER), judged as the staple the server sends: for the apps that ask for a "
            + "staple or OCSP (Alamofire's revocation evaluator).", valueName: "file"))
    var ocspResponse: String?
}

extension OfflineChecker {
    /// The offline use case for `judge` with the evidence files of `options`, read whole; a file that cannot be read
    /// is an input error.
    init(_ judge: Judge, evidence options: OfflineEvidenceOptions) throws(InputError) {
        self.init(judge: judge)
        revocationLists = try options.crlFiles.map { path throws(InputError) in
            RevocationDocument(kind: .crl, source: "CRL file \(path)",
                               content: .success(try Self.read(path, option: "--crl-file")))
        }
        staple = try options.ocspResponse.map { path throws(InputError) in
            try Self.read(path, option: "--ocsp-response")
        }
    }

    private static func read(_ path: String, option: String) throws(InputError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError("\(option) \(path): cannot be read")
        }
        return [UInt8](data)
    }
}
