import Foundation
import Testing
import TestSupport

/// End-to-end: a server that asks for a client certificate. pinctl sends none; the chain the server sent is judged
/// (or dumped, or extracted) even when the server then ends the handshake, and the output says it was asked.
@Suite struct ClientCertificateRequestCommandTests {
    static let asked = "the server asked for a client certificate; pinctl sent none"

    static func server(_ clientCertificate: TestServerOptions.ClientCertificate,
                       _ version: TestServerOptions.MaximumVersion) throws -> TLSTestServer {
        try TLSTestServer(chainPEM: [Certs.path("leaf.pem"), Certs.path("intermediate-ca.pem")],
                          keyPath: Certs.path("leaf.key"),
                          options: .init(clientCertificate: clientCertificate, maximumVersion: version))
    }

    struct Pinning: Sendable, CustomTestStringConvertible {
        let pins: String
        let status: Int32
        let verdict: String
        var testDescription: String { "\(pins) → \(verdict)" }
    }

    @Test(arguments: [
        Pinning(pins: "pins/leaf.pin", status: 0, verdict: "trusted"),
        Pinning(pins: "other-leaf.pem", status: 1, verdict: "rejected"),
    ])
    func tls12ServerRequiringACertificateHasItsChainJudgedAndTheRequestNamed(_ pinning: Pinning) throws {
        let server = try Self.server(.required, .tls12)
        defer { server.stop() }
        let arguments = ["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test", "--mode", "publickey",
                         "--pins", pinning.pins] + LiveRun.anchors

        let text = try PinctlProcess.run(arguments)
        #expect(text.status == pinning.status, "\(text)")
        #expect(text.stdout.contains(pinning.verdict.uppercased() + "  mode publickey"), "\(text)")
        let lines = LiveRun.lines(text.stdout)
        let tlsLine = try #require(lines.firstIndex { $0.hasPrefix("  TLSv1.2, ") }, "\(text)")
        let note = try #require(lines.dropFirst(tlsLine + 1).first, "\(text)")
        #expect(note.hasPrefix("  " + Self.asked + " and the handshake did not complete ("), "\(text)")
        #expect(note.contains("127.0.0.1:\(server.port)"), "the failure names the target: \(text)")
        #expect(note.hasSuffix("), after the server had sent its chain"), "\(text)")
        #expect(text.stdout.contains("#1 CN=pinctl Test Intermediate CA,O=pinctl Test  [presented]"), "\(text)")

        let json = try PinctlProcess.run(arguments + ["--format", "json"])
        #expect(json.status == pinning.status, "\(json)")
        let object = try LiveRun.object(json.stdout)
        #expect(object["verdict"] as? String == pinning.verdict)
        let tls = try #require(object["tls"] as? [String: Any])
        #expect(tls["version"] as? String == "TLSv1.2")
        #expect(tls["clientCertificateRequested"] as? Bool == true, "\(tls)")
        #expect(tls["handshakeCompleted"] as? Bool == false, "\(tls)")
        let error = try #require(tls["handshakeError"] as? String, "\(tls)")
        #expect(error.contains("127.0.0.1:\(server.port)"), "\(error)")
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.prefix(2).map { $0["spki"] as? String } == [LiveRun.pin(of: "leaf.pem"),
                                                                   LiveRun.pin(of: "intermediate-ca.pem")])
        #expect(chain.prefix(2).allSatisfy { $0["presented"] as? Bool == true })
        #expect(server.handshakesCompleted == 0, "the server refused every handshake")
    }

    struct Completing: Sendable, CustomTestStringConvertible {
        let clientCertificate: TestServerOptions.ClientCertificate
        let version: TestServerOptions.MaximumVersion
        let versionName: String
        var asked: Bool { clientCertificate != .notRequested }
        var testDescription: String { "\(clientCertificate), \(versionName)" }
    }

    /// TLS 1.3 lets the client finish before a server that requires a certificate objects.
    @Test(arguments: [
        Completing(clientCertificate: .required, version: .tls13, versionName: "TLSv1.3"),
        Completing(clientCertificate: .requested, version: .tls13, versionName: "TLSv1.3"),
        Completing(clientCertificate: .requested, version: .tls12, versionName: "TLSv1.2"),
        Completing(clientCertificate: .notRequested, version: .tls12, versionName: "TLSv1.2"),
    ])
    func aCompletedHandshakeSaysWhetherTheServerAskedForACertificate(_ setting: Completing) throws {
        let server = try Self.server(setting.clientCertificate, setting.version)
        defer { server.stop() }
        let arguments = ["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test"] + LiveRun.anchors

        let text = try PinctlProcess.run(arguments)
        #expect(text.status == 0, "\(text)")
        let lines = LiveRun.lines(text.stdout)
        let tlsLine = try #require(lines.firstIndex { $0.hasPrefix("  \(setting.versionName), ") }, "\(text)")
        let next = lines.dropFirst(tlsLine + 1).first.map(String.init)
        if setting.asked {
            #expect(next == "  " + Self.asked + " and completed its side of the handshake", "\(text)")
        } else {
            #expect(next?.hasPrefix("  #0 CN=pinning.test") == true, "\(text)")
            #expect(!text.stdout.contains("client certificate"), "\(text)")
        }

        let json = try PinctlProcess.run(arguments + ["--format", "json"])
        #expect(json.status == 0, "\(json)")
        let tls = try #require(try LiveRun.object(json.stdout)["tls"] as? [String: Any])
        #expect(tls["clientCertificateRequested"] as? Bool == setting.asked, "\(tls)")
        #expect(tls["handshakeCompleted"] as? Bool == true, "\(tls)")
        #expect(tls["handshakeError"] == nil, "\(tls)")
    }

    @Test func chainShowsWhatAServerRequiringACertificateSentAndSaysItAsked() throws {
        let server = try Self.server(.required, .tls12)
        defer { server.stop() }
        let arguments = ["chain", "127.0.0.1:\(server.port)"] + LiveRun.anchors

        let text = try PinctlProcess.run(arguments)
        #expect(text.status == 0, "\(text)")
        let lines = LiveRun.lines(text.stdout)
        #expect(lines.first?.hasPrefix("127.0.0.1:\(server.port)  (TLSv1.2, ") == true, "\(text)")
        #expect(lines.dropFirst().first?.hasPrefix("  " + Self.asked + " and the handshake did not complete (")
            == true, "\(text)")
        #expect(text.stdout.contains("#0 CN=pinning.test  [presented]"), "\(text)")
        #expect(text.stdout.contains("#1 CN=pinctl Test Intermediate CA,O=pinctl Test  [presented]"))
        #expect(text.stdout.contains("verifies against the CA file root-ca.pem"), "\(text)")

        let json = try PinctlProcess.run(arguments + ["--format", "json"])
        #expect(json.status == 0, "\(json)")
        let object = try LiveRun.object(json.stdout)
        #expect(object["verdict"] as? String == "trusted")
        let tls = try #require(object["tls"] as? [String: Any])
        #expect(tls["clientCertificateRequested"] as? Bool == true, "\(tls)")
        #expect(tls["handshakeCompleted"] as? Bool == false, "\(tls)")
        #expect((tls["handshakeError"] as? String)?.isEmpty == false, "\(tls)")
        #expect((object["chain"] as? [[String: Any]])?.map { $0["presented"] as? Bool } == [true, true, false])
    }

    @Test func extractWritesTheChainOfAServerRequiringACertificate() throws {
        let server = try Self.server(.required, .tls12)
        defer { server.stop() }
        try TemporaryDirectory.with { temporary in
            let out = temporary.path("pins")
            let result = try PinctlProcess.run(["extract", "127.0.0.1:\(server.port)", "--out", out]
                + LiveRun.anchors)

            #expect(result.status == 0, "\(result)")
            let files = ["00-pinning.test.cer": "leaf.der", "01-pinctl-test-intermediate-ca.cer": "intermediate-ca.der",
                         "02-pinctl-test-root-ca.cer": "root-ca.der"]
            let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(names == (Array(files.keys) + ["pins.pin"]).sorted())
            for (name, fixture) in files {
                let written = FileManager.default.contents(atPath: out + "/" + name).map { [UInt8]($0) }
                #expect(written == Certs.bytes(fixture), "\(name)")
            }
        }
    }

    @Test func anyOtherHandshakeFailureAfterTheChainIsStillAConnectionError() throws {
        let server = try TLSTestServer(chainPEM: [Certs.path("leaf.pem"), Certs.path("intermediate-ca.pem")],
                                       keyPath: Certs.path("leaf.key"),
                                       options: .init(maximumVersion: .tls12, failsBeforeFinished: true))
        defer { server.stop() }

        let result = try PinctlProcess.run(["check", "127.0.0.1:\(server.port)", "--format", "json"]
            + LiveRun.anchors)

        #expect(result.status == 3, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect(object["verdict"] as? String == "error")
        #expect(["handshake", "reset"].contains(LiveRun.reasonCode(object)), "\(result)")
        #expect(!result.stderr.contains("client certificate"), "\(result)")
    }
}
