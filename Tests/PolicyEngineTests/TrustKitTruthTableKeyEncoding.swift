import Foundation
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// A self-signed certificate for api.example.com whose key the openssl CLI makes in a given encoding.
struct TKKeyCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// openssl commands writing `key.pem`, run in a fresh directory.
    let makeKey: [[String]]
    var enforce = true
    let expected: ExpectedVerdict
    /// Whether pinctl must warn that TrustKit hashes the key in another encoding.
    let reencoded: Bool

    var testDescription: String { "\(name)\(enforce ? "" : ", report-only") → \(expected)" }
}

private func rsa(_ options: String...) -> [[String]] {
    [["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"] + options.flatMap { ["-pkeyopt", $0] }
        + ["-out", "key.pem"]]
}

private let p256 = ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ec.pem"]

/// TrustKit hashes a fixed header plus `SecKeyCopyExternalRepresentation` (TSKSPKIHashCache.m), so a pin of the DER
/// SubjectPublicKeyInfo (what the openssl CLI computes) matches only a key in that usual encoding.
private let trustKitKeyCases: [TKKeyCase] = [
    TKKeyCase(name: "RSA 2048, exponent 65537", makeKey: rsa(), expected: .pinned(at: 0), reencoded: false),
    TKKeyCase(name: "RSA 2048, exponent 3", makeKey: rsa("rsa_keygen_pubexp:3"),
              expected: .rejected("public-key-not-pinned", at: nil), reencoded: true),
    TKKeyCase(name: "RSA 2048, exponent 3", makeKey: rsa("rsa_keygen_pubexp:3"), enforce: false,
              expected: .failedOpen("enforcePinning is off"), reencoded: true),
    TKKeyCase(name: "P-256, uncompressed point", makeKey: [p256, ["ec", "-in", "ec.pem", "-out", "key.pem"]],
              expected: .pinned(at: 0), reencoded: false),
    TKKeyCase(name: "P-256, compressed point",
              makeKey: [p256, ["ec", "-in", "ec.pem", "-conv_form", "compressed", "-out", "key.pem"]],
              expected: .rejected("public-key-not-pinned", at: nil), reencoded: true),
    // As long as an uncompressed point, but starting 06 or 07: Apple's external representation starts 04.
    TKKeyCase(name: "P-256, hybrid point",
              makeKey: [p256, ["ec", "-in", "ec.pem", "-conv_form", "hybrid", "-out", "key.pem"]],
              expected: .rejected("public-key-not-pinned", at: nil), reencoded: true),
]

private let endEntity = """
    [req]
    distinguished_name = dn
    x509_extensions = ee
    prompt = no
    [dn]
    CN = api.example.com
    [ee]
    basicConstraints = critical,CA:FALSE
    subjectKeyIdentifier = hash
    subjectAltName = DNS:api.example.com
    extendedKeyUsage = serverAuth

    """

@Suite("TrustKit key encodings")
struct TrustKitKeyEncodingTests {
    @Test("TrustKit hashes of unusual keys", arguments: trustKitKeyCases)
    func aDERPinMatchesOnlyAKeyTrustKitHashesAsDER(_ keyCase: TKKeyCase) throws {
        try TemporaryDirectory.with { directory in
            for command in keyCase.makeKey { try OpenSSLCLI.run(command, in: directory.path) }
            try directory.write("ee.cnf", text: endEntity)
            // The certificate is its own anchor; it is valid for 10 days from now, and judged an hour from now.
            for command in [["req", "-x509", "-config", "ee.cnf", "-key", "key.pem", "-days", "10", "-out", "cert.pem"],
                            ["x509", "-in", "cert.pem", "-pubkey", "-noout", "-out", "public.pem"],
                            ["pkey", "-pubin", "-in", "public.pem", "-outform", "der", "-out", "spki.der"],
                            ["dgst", "-sha256", "-binary", "-out", "pin.bin", "spki.der"]] {
                try OpenSSLCLI.run(command, in: directory.path)
            }
            let pin = try Data(contentsOf: URL(fileURLWithPath: directory.path("pin.bin")))
            let entry = TrustKitDomainPolicy(
                publicKeyHashes: [PublicKeyPin(hash: [UInt8](pin), source: PinSource("spki.der")), TKPins.pin("X")],
                enforcePinning: keyCase.enforce)
            let policy = try TrustKitPolicy(domains: [("api.example.com", entry)])
            let certificate = try CertificateParser.certificates(atPath: directory.path("cert.pem"))
            let context = EvaluationContext(
                platformAnchors: try TrustStore.caFiles([directory.path("cert.pem")], directories: []),
                time: Date().addingTimeInterval(3600))
            let evaluation = PolicyEvaluator(context: context).evaluate(policy, presented: certificate,
                                                                        domain: "api.example.com")
            expectVerdict(evaluation, is: keyCase.expected)
            expectWarning(evaluation, containing: "hashes in another encoding", present: keyCase.reencoded)
        }
    }
}
