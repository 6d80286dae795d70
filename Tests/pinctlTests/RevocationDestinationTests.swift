import Foundation
import Testing
import TestSupport

/// Where `check --revocation` may send its fetches. The URLs come from the checked server's certificate, so the
/// server picks them: one with CR LF would smuggle headers or a second request, one on loopback or a private network
/// would make pinctl its messenger there. A recording listener (TestProxy answering 404 to everything) stands where
/// the URL points and shows what, if anything, arrived.
@Suite(.serialized) struct RevocationDestinationTests {
    static func check(_ server: OpenSSLServer, _ fixture: RevocationFixture, _ extra: [String],
                      environment: [String: String] = [:]) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["check", "127.0.0.1:\(server.port)", "--ca-file", fixture.directory + "/root.pem",
                               "--at", RevocationFixture.at, "--timeout", "5"] + extra,
                              environment: environment)
    }

    static func message(_ object: [String: Any]) -> String {
        (object["reason"] as? [String: Any])?["message"] as? String ?? ""
    }

    /// A leaf whose OCSP URL (or CRL distribution point) goes on, after CR LF, with a header and a whole
    /// `PUT /latest/api/token` request (scripts/make-hostile-revocation-certs.sh) is refused before any byte is
    /// sent: the recorder sees no connection, the error names the certificate and shows the URL's CR LF escaped.
    /// (Recent OpenSSL 3.0 releases refuse CR LF in a request line themselves, but only once pinctl has connected,
    /// and as an OCSP answer that cannot be relied on; older ones send it.)
    @Test func aRevocationURLWithCRLFIsRefusedBeforeAnythingIsSent() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let recorder = try TestProxy(.answers("HTTP/1.0 404 Not Found"))
            defer { recorder.stop() }
            let made = try PinctlProcess.runShell(
                "sh \(Certs.root)/scripts/make-hostile-revocation-certs.sh . http://127.0.0.1:\(recorder.port)/ocsp",
                in: fixture.directory)
            try #require(made.status == 0, "\(made)")
            for mode in ["ocsp", "crl"] {
                let server = try RevocationTests.server("smuggle-\(mode)", in: fixture)
                defer { server.stop() }
                let json = try Self.check(server, fixture, ["--revocation", mode, "--format", "json"])
                #expect(json.status == 3, "\(mode): \(json)")
                let object = try LiveRun.object(json.stdout)
                #expect(object["verdict"] as? String == "error", "\(json)")
                #expect(LiveRun.reasonCode(object) == "refused", "\(json)")
                let message = Self.message(object)
                #expect(message.contains("revocation check of certificate #0 (CN=smuggle-\(mode).pinning.test)"),
                        "\(message)")
                #expect(message.contains("not asked: it holds a carriage return (0x0D)"), "\(message)")

                let text = try Self.check(server, fixture, ["--revocation", mode, "--revocation-allow-private"])
                #expect(text.status == 3, "\(mode): \(text)")
                #expect(!(text.stdout + text.stderr).contains("\r"), "\(text)")
                #expect((text.stdout + text.stderr).contains("/ocsp\\r\\nX-Smuggled: yes\\r\\n"), "\(text)")
            }
            #expect(recorder.connections == 0, "\(recorder.requests)")
        }
    }

    /// The fixture's responder and CRL server are on 127.0.0.1: refused without the flag, and never asked; asked,
    /// and believed, with it.
    @Test func aLoopbackResponderIsRefusedUnlessPrivateAddressesAreAllowed() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let server = try RevocationTests.server("revoked", in: fixture)
            defer { server.stop() }
            for (mode, url) in [("ocsp", fixture.ocspURL), ("crl", fixture.crlURL)] {
                let refused = try Self.check(server, fixture, ["--revocation", mode, "--format", "json"])
                #expect(refused.status == 3, "\(mode): \(refused)")
                let object = try LiveRun.object(refused.stdout)
                #expect(LiveRun.reasonCode(object) == "refused", "\(refused)")
                let message = Self.message(object)
                #expect(message.contains("revocation check of certificate #0 (CN=revoked.pinning.test)"),
                        "\(message)")
                #expect(message.contains("\(url) not asked: 127.0.0.1 is a loopback address (127.0.0.0/8)"),
                        "\(message)")
                #expect(message.contains("--revocation-allow-private"), "\(message)")

                let allowed = try Self.check(server, fixture, ["--revocation", mode, "--format", "json",
                                                               "--revocation-allow-private"])
                #expect(allowed.status == 1, "\(mode): \(allowed)")
                #expect(LiveRun.reasonCode(try LiveRun.object(allowed.stdout)) == "revoked", "\(allowed)")
            }
        }
    }

    /// Through a proxy the proxy resolves names, but a URL whose host is a loopback literal is refused before the
    /// proxy is asked.
    @Test func throughAProxyALoopbackLiteralIsRefusedBeforeTheProxyIsAsked() throws {
        try TemporaryDirectory.with { directory in
            let fixture = try RevocationFixture(in: directory.path)
            defer { fixture.stop() }
            let proxy = try TestProxy()
            defer { proxy.stop() }
            let server = try RevocationTests.server("revoked", in: fixture)
            defer { server.stop() }
            let result = try Self.check(
                server, fixture, ["--revocation", "ocsp", "--format", "json"],
                environment: ["http_proxy": proxy.url(), "https_proxy": "", "all_proxy": "", "no_proxy": ""])
            #expect(result.status == 3, "\(result)")
            let object = try LiveRun.object(result.stdout)
            #expect(LiveRun.reasonCode(object) == "refused", "\(result)")
            #expect(Self.message(object).contains("not asked: 127.0.0.1 is a loopback address"), "\(result)")
            #expect(proxy.connections == 0, "\(proxy.requests)")
        }
    }
}
