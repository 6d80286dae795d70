import ArgumentParser
import PolicyEngine

extension RevocationMode: ExpressibleByArgument {}

/// `--revocation` (`check`): whether and how the leaf is checked for revocation after the policy trusted the chain.
struct RevocationOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Check the leaf for revocation once the chain is trusted: none, stapled (the OCSP response the server "
            + "staples; none stapled is a warning), ocsp (ask its OCSP responder), crl (fetch its CRL). ocsp and crl "
            + "fetch over plain HTTP through http_proxy/--proxy, within --timeout.",
        valueName: "method"))
    var revocation: RevocationMode = .none
}
