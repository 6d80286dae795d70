import ArgumentParser
import OpenSSLWrapper
import PolicyEngine

extension RevocationMode: ExpressibleByArgument {}

/// `--revocation` (`check`): whether and how the leaf is checked for revocation after the policy trusted the chain, and
/// where its fetches may go.
struct RevocationOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Check the leaf for revocation once the chain is trusted: none, stapled (the OCSP response the server "
            + "staples; none stapled is a warning), ocsp (ask its OCSP responder), crl (fetch its CRL). ocsp and crl "
            + "fetch over plain HTTP through http_proxy/--proxy, within --timeout.",
        valueName: "method"))
    var revocation: RevocationMode = .none

    // Only here, never in a policy file: a policy file may come from the repository being checked, and the switch
    // lets the checked server's certificate pick a host inside the network pinctl runs in.
    @Flag(help: ArgumentHelp(
        "Let OCSP and CRL fetches (--revocation, Alamofire's revocation evaluator) connect to loopback, private, "
            + "link-local, CGNAT, multicast and other non-public addresses.",
        discussion: "Warning: the URL comes from the checked server's certificate, so the server then chooses a host "
            + "inside your network for pinctl to send a request to (169.254.169.254 is a cloud's metadata service). "
            + "Without it such a fetch is refused and reported as a responder that cannot be reached (exit 3). "
            + "Through a proxy only an IP literal or a localhost name in the URL can be refused: the proxy resolves "
            + "other names."))
    var revocationAllowPrivate = false

    var destination: RevocationDestination { RevocationDestination(allowsPrivateAddresses: revocationAllowPrivate) }
}
