import Foundation
import Testing
import TestSupport

/// One verdict everywhere (DESIGN §3, issue 18's "Done when"): one policy file with an app of every library runs
/// through `check --config`, `verify --config` on the chain the server sends, `lint --config` and a live `serve`
/// probe, against the same loopback servers, and every command gives every app the same verdict and reason code,
/// target by target. The revocation PKI is scripts/make-revocation-pki.sh's, with the openssl CLI's responder.
@Suite(.serialized) struct CommandAgreementTests {
    /// An app of every library, each judging 127.0.0.1 (the revocation leaves' IP SAN) and api.example.com:
    /// AFNetworking and OkHttp pin the issuing CA's key; Alamofire's revocation evaluator asks the responder (`.any`,
    /// which takes a staple instead when there is one) or only the staple (`.networkAccessDisabled`); TrustKit's pins
    /// match nothing and expired in 2030, so they fail open (TrustKit refuses an IP address, so it judges only
    /// api.example.com); NSC's pin matches nothing, and its anchor has overridePins.
    static func policyFile(_ fixture: RevocationFixture, nsc: String, targets: [String], pins: Pins) -> String {
        """
        version: 1
        anchors: { ca-files: [\(fixture.directory)/root.pem] }
        targets: [\(targets.map { "\"\($0)\"" }.joined(separator: ", "))]
        apps:
          - name: afnetworking
            library: afnetworking
            hosts: [127.0.0.1, api.example.com]
            policy: { mode: publickey, pins: [\(fixture.directory)/ca.pem] }
          - name: alamofire-any
            library: alamofire
            policy:
              evaluators:
                127.0.0.1: {kind: revocation}
                api.example.com: {kind: revocation}
          - name: alamofire-staple
            library: alamofire
            policy:
              evaluators:
                127.0.0.1: {kind: revocation, options: [networkAccessDisabled]}
                api.example.com: {kind: revocation, options: [networkAccessDisabled]}
          - name: okhttp
            library: okhttp
            policy: { pins: { "127.0.0.1": [\(pins.ca)], "api.example.com": [\(pins.ca)] } }
          - name: trustkit-expired
            library: trustkit
            policy:
              domains:
                api.example.com: { publicKeyHashes: [\(pins.bare(pins.rogue)), \(pins.bare(pins.responder))],
                                   expirationDate: 2030-01-01 }
          - name: nsc-override
            library: nsc
            config: \(nsc)

        """
    }

    /// SPKI pins of the fixture's issuing CA, and of two keys no served chain holds (a rogue signer, the responder).
    struct Pins {
        let ca: String
        let rogue: String
        let responder: String

        /// The base64 alone, as TrustKit and Android write a pin.
        func bare(_ pin: String) -> String { String(pin.dropFirst("sha256/".count)) }
    }

    static func nscConfig(otherPin: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <network-security-config>
            <domain-config>
                <domain>127.0.0.1</domain>
                <domain>api.example.com</domain>
                <trust-anchors>
                    <certificates src="@raw/revocation_root" overridePins="true" />
                </trust-anchors>
                <pin-set>
                    <pin digest="SHA-256">\(otherPin.dropFirst("sha256/".count))</pin>
                </pin-set>
            </domain-config>
        </network-security-config>

        """
    }

    /// The policy file, with the NSC app's resources beside it (its anchor is the fixture's root); its path.
    static func writePolicyFile(in directory: TemporaryDirectory, _ fixture: RevocationFixture, targets: [String])
        throws -> String
    {
        let pins = Pins(ca: try opensslPin("ca.pem", in: fixture.directory),
                        rogue: try opensslPin("rogue.pem", in: fixture.directory),
                        responder: try opensslPin("responder.pem", in: fixture.directory))
        _ = try directory.makeDirectory("app/res/raw")
        _ = try directory.makeDirectory("app/res/xml")
        try FileManager.default.copyItem(atPath: fixture.directory + "/root.pem",
                                         toPath: directory.path("app/res/raw/revocation_root.pem"))
        let nsc = try directory.write("app/res/xml/network_security_config.xml", text: nscConfig(otherPin: pins.rogue))
        return try directory.write("pinctl.yaml", text: policyFile(fixture, nsc: nsc, targets: targets, pins: pins))
    }

    /// The `sha256/BASE64` SPKI pin of a certificate file, as the openssl CLI computes it.
    static func opensslPin(_ file: String, in directory: String) throws -> String {
        let result = try PinctlProcess.runShell(
            "openssl x509 -in \(file) -pubkey -noout | openssl pkey -pubin -outform der "
                + "| openssl dgst -sha256 -binary | openssl base64 -A", in: directory)
        try #require(result.status == 0, "\(result)")
        return "sha256/" + result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Each app's verdict from a `/probe`.
    static func probeVerdicts(_ exporter: ServeProcess, _ target: String, servername: String?) throws
        -> [String: AppVerdict]
    {
        try AppVerdict.fromProbe(try exporter.client.probe(target, servername.map { [("servername", $0)] } ?? []))
    }

    /// A leaf for api.example.com (a name TrustKit accepts) from the fixture's issuing CA, without an OCSP
    /// responder or CRL named, made by the openssl CLI as the rest of the revocation PKI is.
    static func makeNamedLeaf(in fixture: RevocationFixture) throws {
        let result = try PinctlProcess.runShell("""
            printf 'subjectAltName=DNS:api.example.com\\nbasicConstraints=critical,CA:FALSE\\n\
            keyUsage=critical,digitalSignature\\nextendedKeyUsage=serverAuth\\n' > api.ext &&
            openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout api.key \
                -subj /CN=api.example.com -out api.csr 2>/dev/null &&
            openssl x509 -req -in api.csr -CA ca.pem -CAkey ca.key -set_serial 0x2000 -days 7300 -extfile api.ext \
                -out api.pem 2>/dev/null &&
            cat api.pem ca.pem > api-chain.pem
            """, in: fixture.directory)
        try #require(result.status == 0, "\(result)")
    }

    static let common = ["--at", RevocationFixture.at, "--format", "json"]

    /// Three servers: `good` staples the responder's "good" answer; `revoked` staples nothing, so the responder is
    /// asked; `named` serves api.example.com's leaf, which names no responder, and staples nothing. The verdicts are
    /// written out by hand from what each library does (DESIGN §6) and what the openssl CLI's responder says.
    @Test func checkVerifyLintAndServeGiveEveryAppTheSameVerdictOnEveryTarget() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path("pki"))
            defer { fixture.stop() }
            try Self.makeNamedLeaf(in: fixture)
            let good = try RevocationTests.server("good", staple: "staple-good.der", in: fixture)
            defer { good.stop() }
            let revoked = try RevocationTests.server("revoked", in: fixture)
            defer { revoked.stop() }
            let named = try RevocationTests.server("api", in: fixture)
            defer { named.stop() }

            let servers = [
                Server(name: "good", port: good.port, host: "127.0.0.1", chain: "good-chain.pem",
                       staple: "staple-good.der"),
                Server(name: "revoked", port: revoked.port, host: "127.0.0.1", chain: "revoked-chain.pem"),
                Server(name: "named", port: named.port, host: "api.example.com", chain: "api-chain.pem"),
            ]
            let file = try Self.writePolicyFile(in: directory, fixture, targets: servers.map(\.target))

            let pinned = AppVerdict(trusted: true, reason: "pin-matched")
            let validated = AppVerdict(trusted: true, reason: "validated")
            let failedOpen = AppVerdict(trusted: true, reason: "failed-open")
            let onTheIP = ["afnetworking": pinned, "okhttp": pinned, "nsc-override": failedOpen]
            let expected: [String: [String: AppVerdict]] = [
                // The staple says good: both Alamofire apps judge it; neither asks the responder.
                "good": onTheIP.merging(["alamofire-any": validated, "alamofire-staple": validated]) { $1 },
                // No staple: `.any` asks the responder, which says revoked; `.networkAccessDisabled` has only the
                // staple, and a missing one is a warning (DESIGN §11).
                "revoked": onTheIP.merging([
                    "alamofire-any": AppVerdict(trusted: false, reason: "revoked"), "alamofire-staple": validated,
                ]) { $1 },
                // The leaf names no responder: a warning for `.any`, as the missing staple is for the other.
                "named": onTheIP.merging([
                    "alamofire-any": validated, "alamofire-staple": validated, "trustkit-expired": failedOpen,
                ]) { $1 },
            ]

            let exporter = try ServeProcess(["--config", file, "--at", RevocationFixture.at, "--timeout", "5",
                                             "--revocation-allow-private"])
            defer { exporter.stop() }
            for server in servers {
                let want = try #require(expected[server.name])
                let live = [server.target, "--config", file, "--timeout", "5", "--revocation-allow-private"]
                    + server.servername + Self.common
                let check = try PinctlProcess.run(["check"] + live, in: directory.path)
                #expect(try AppVerdict.fromJSON(check) == want, "check, \(server.name): \(check)")
                let lint = try PinctlProcess.run(["lint"] + live, in: directory.path)
                #expect(try AppVerdict.fromJSON(lint) == want, "lint, \(server.name): \(lint)")
                let probed = try Self.probeVerdicts(exporter, server.target, servername: server.servername.last)
                #expect(probed == want, "serve, \(server.name)")

                // verify judges the chain the server sends; offline, the staple it sends is given as its file.
                let verify = try PinctlProcess.run(
                    ["verify", "--config", file, "--chain", fixture.directory + "/" + server.chain, "--host",
                     server.host] + (server.staple.map { ["--ocsp-response", fixture.directory + "/" + $0] } ?? [])
                        + Self.common, in: directory.path)
                // The one difference DESIGN §3 allows: evidence an app asks for and cannot get is that app's error,
                // the other apps keep their verdicts. Offline nothing asks the responder (`.any` on `revoked`), and
                // without --ocsp-response nothing says what the server staples (`.networkAccessDisabled` where
                // there is no staple file): those apps are `error input` (exit 2), told which file to give.
                var offline = want
                if server.staple == nil { offline["alamofire-staple"] = AppVerdict(trusted: false, reason: "input") }
                if server.name == "revoked" { offline["alamofire-any"] = AppVerdict(trusted: false, reason: "input") }
                #expect(try AppVerdict.fromJSON(verify) == offline, "verify, \(server.name): \(verify)")
                #expect(verify.status == (offline == want ? 0 : 2), "verify, \(server.name): \(verify)")
                for (app, verdict) in offline where verdict.reason == "input" {
                    let line = verify.stderr.split(separator: "\n").first { $0.hasPrefix("pinctl: app \(app): ") }
                    #expect(line?.contains("give --ocsp-response FILE") == true, "verify, \(server.name): \(verify)")
                }
            }

            // Given the evidence the live check had (the responder's answer, fetched by the openssl CLI, standing
            // for the staple), verify agrees with check on the app that asked the responder.
            let answer = directory.path("revoked-answer.der")
            let fetched = try PinctlProcess.runShell(
                "openssl ocsp -issuer ca.pem -cert revoked.pem -url \(fixture.ocspURL) -no_nonce -respout \(answer) "
                    + "-noverify >/dev/null 2>&1", in: fixture.directory)
            try #require(fetched.status == 0, "\(fetched)")
            let verify = try PinctlProcess.run(
                ["verify", "--config", file, "--chain", fixture.directory + "/revoked-chain.pem", "--host",
                 "127.0.0.1", "--ocsp-response", answer] + Self.common, in: directory.path)
            #expect(try AppVerdict.fromJSON(verify)["alamofire-any"] == expected["revoked"]?["alamofire-any"],
                    "\(verify)")
        }
    }

    /// `--revocation crl` on the command line is every app's check (DESIGN §3), and offline `--crl-file` gives the
    /// same CRL the distribution point serves: check, lint and verify reject the revoked leaf for every app alike.
    /// `serve` takes no part: it has no `--revocation`, a probe checks what each library asks for (DESIGN §11).
    @Test func aCRLForEveryAppRevokesTheLeafInCheckLintAndVerifyAlike() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path("pki"))
            defer { fixture.stop() }
            let revoked = try RevocationTests.server("revoked", in: fixture)
            defer { revoked.stop() }
            let target = "127.0.0.1:\(revoked.port)"
            let file = try Self.writePolicyFile(in: directory, fixture, targets: [target])
            // TrustKit judges only api.example.com; every app judging 127.0.0.1 trusts the chain, then its CRL
            // says revoked.
            let apps = ["afnetworking", "alamofire-any", "alamofire-staple", "okhttp", "nsc-override"]
            let revokedVerdict = AppVerdict(trusted: false, reason: "revoked")
            let expected = Dictionary(uniqueKeysWithValues: apps.map { ($0, revokedVerdict) })

            let live = [target, "--config", file, "--timeout", "5", "--revocation", "crl", "--revocation-allow-private"]
                + Self.common
            let check = try PinctlProcess.run(["check"] + live, in: directory.path)
            #expect(try AppVerdict.fromJSON(check) == expected, "\(check)")
            let lint = try PinctlProcess.run(["lint"] + live, in: directory.path)
            #expect(try AppVerdict.fromJSON(lint) == expected, "\(lint)")
            let verify = try PinctlProcess.run(
                ["verify", "--config", file, "--chain", fixture.directory + "/revoked-chain.pem", "--host",
                 "127.0.0.1", "--crl-file", fixture.directory + "/ca.crl"] + Self.common, in: directory.path)
            #expect(try AppVerdict.fromJSON(verify) == expected, "\(verify)")
        }
    }

    /// A loopback server of the test, and how each command names it.
    struct Server {
        let name: String
        let port: UInt16
        /// The name its leaf is for: the target's own address, or a servername.
        let host: String
        /// What it sends, in the fixture's directory; and the OCSP response it staples, if any.
        let chain: String
        var staple: String? = nil

        var target: String { "127.0.0.1:\(port)" }
        var servername: [String] { host == "127.0.0.1" ? [] : ["--servername", host] }
    }
}
