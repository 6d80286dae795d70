import ArgumentParser

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
