import Foundation
import Testing
import TestSupport

/// One verdict everywhere (DESIGN §3): the same policy file through `check --config` and through a live `serve`
/// probe, against the same loopback servers, gives every app the same verdict and reason code. The revocation PKI
/// is scripts/make-revocation-pki.sh's; what each leaf's status is comes from the openssl CLI's responder.
@Suite(.serialized) struct ServeCheckAgreementTests {
    /// An Alamofire app whose evaluator asks the leaf's OCSP responder, beside one that asks for no revocation.
    static func policyFile(_ fixture: RevocationFixture, target: String) -> String {
        """
        version: 1
        anchors: { ca-files: [\(fixture.directory)/root.pem] }
        targets: ["\(target)"]
        apps:
          - name: revoking
            library: alamofire
            policy:
              evaluators:
                127.0.0.1: {kind: revocation}
          - name: plain
            library: alamofire
            policy:
              evaluators:
                127.0.0.1: {kind: default}

        """
    }

    /// Each app's verdict and reason code from `check --config --format json`.
    static func checkVerdicts(_ file: String, target: String) throws -> [String: AppVerdict] {
        try AppVerdict.fromJSON(try PinctlProcess.run([
            "check", target, "--config", file, "--at", RevocationFixture.at, "--timeout", "2", "--format", "json",
            "--revocation-allow-private"]))
    }

    /// Each app's verdict and reason from a `/probe` of a `serve` started for it.
    static func probeVerdicts(_ file: String, target: String) throws -> [String: AppVerdict] {
        let exporter = try ServeProcess(["--config", file, "--at", RevocationFixture.at, "--timeout", "2",
                                         "--revocation-allow-private"])
        defer { exporter.stop() }
        return try AppVerdict.fromProbe(try exporter.client.probe(target))
    }

    /// A revoked leaf: the revocation app rejects it as revoked (openssl's responder says so), the other app trusts
    /// the valid chain. Today's main: the probe never asked the responder and said `validated` for both.
    @Test func aRevokedLeafIsRevokedForTheRevocationAppInCheckAndProbeAlike() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let server = try RevocationTests.server("revoked", in: fixture)
            defer { server.stop() }
            let target = "127.0.0.1:\(server.port)"
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(fixture, target: target))
            let expected = ["revoking": AppVerdict(trusted: false, reason: "revoked"),
                            "plain": AppVerdict(trusted: true, reason: "validated")]
            #expect(try Self.checkVerdicts(file, target: target) == expected)
            #expect(try Self.probeVerdicts(file, target: target) == expected)
        }
    }

    /// A responder that never answers: the app that asked for its answer gets the error (timeout, DESIGN §3); the
    /// app that asked for nothing keeps its verdict. Today's main: check made both apps `error timeout` (exit 3)
    /// and the probe trusted both.
    @Test func aSilentResponderIsTheErrorOfTheAppThatAskedOnlyInCheckAndProbeAlike() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path, silentResponder: true)
            defer { fixture.stop() }
            let server = try RevocationTests.server("good", in: fixture)
            defer { server.stop() }
            let target = "127.0.0.1:\(server.port)"
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(fixture, target: target))
            let expected = ["revoking": AppVerdict(trusted: false, reason: "timeout"),
                            "plain": AppVerdict(trusted: true, reason: "validated")]
            #expect(try Self.checkVerdicts(file, target: target) == expected)
            #expect(try Self.probeVerdicts(file, target: target) == expected)
        }
    }
}
