import Foundation
import Testing
import TestSupport

/// End-to-end: the built `pinctl check` against an in-process TLS server presenting leaf.pem + intermediate-ca.pem.
@Suite struct CheckCommandTests {
    struct Mode: Sendable, CustomTestStringConvertible {
        let name: String
        let pins: [String]
        /// `presented` of every JSON chain entry: the store's root follows the presented pair unless the chain the
        /// mode built ends at a pinned certificate below it.
        let presented: [Bool]
        var testDescription: String { ([name] + pins).joined(separator: " ") }
    }

    static let modes = [
        Mode(name: "none", pins: [], presented: [true, true, false]),
        Mode(name: "certificate", pins: ["--pins", "leaf.pem"], presented: [true, true]),
        Mode(name: "certificate", pins: ["--pins", "root-ca.pem"], presented: [true, true, false]),
        Mode(name: "publickey", pins: ["--pins", "pins/leaf.pin"], presented: [true, true, false]),
    ]

    @Test(arguments: modes)
    func correctlyServedChainIsTrustedInEveryMode(_ mode: Mode) throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let arguments = ["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test", "--mode", mode.name]
            + mode.pins + LiveRun.anchors

        let text = try PinctlProcess.run(arguments)
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("TRUSTED  mode \(mode.name)"), "\(text)")
        #expect(text.stdout.contains("127.0.0.1:\(server.port) for pinning.test"), "\(text)")
        #expect(text.stdout.contains("  TLSv1."), "\(text)")

        let json = try PinctlProcess.run(arguments + ["--format", "json"])
        #expect(json.status == 0, "\(json)")
        let object = try LiveRun.object(json.stdout)
        #expect(object["verdict"] as? String == "trusted")
        #expect(object["target"] as? String == "127.0.0.1:\(server.port)")
        #expect(object["domain"] as? String == "pinning.test")
        #expect((object["policy"] as? [String: Any])?["mode"] as? String == mode.name)
        let tls = try #require(object["tls"] as? [String: Any])
        #expect((tls["version"] as? String)?.hasPrefix("TLSv1.") == true, "\(tls)")
        #expect((tls["cipher"] as? String)?.isEmpty == false, "\(tls)")
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.map { $0["presented"] as? Bool } == mode.presented)
        #expect(chain.first?["spki"] as? String == LiveRun.pin(of: "leaf.pem"))
        #expect(server.lastServerName == "pinning.test", "--servername is the SNI sent")
    }

    struct Form: Sendable, CustomTestStringConvertible {
        /// The target with PORT standing for the server's port.
        let target: String
        let serverHost: String
        /// The domain checked (the target's host) and the SNI sent: none for an IP literal.
        let domain: String
        let serverName: String?
        var testDescription: String { target }
    }

    static let forms = [
        Form(target: "127.0.0.1:PORT", serverHost: "127.0.0.1", domain: "127.0.0.1", serverName: nil),
        Form(target: "localhost:PORT", serverHost: "127.0.0.1", domain: "localhost", serverName: "localhost"),
        Form(target: "https://localhost:PORT/some/path?q=1", serverHost: "127.0.0.1", domain: "localhost",
             serverName: "localhost"),
        Form(target: "[::1]:PORT", serverHost: "::1", domain: "::1", serverName: nil),
    ]

    @Test(arguments: forms)
    func everyTargetFormReachesTheServerAndChecksItsHost(_ form: Form) throws {
        let server = try LiveRun.server(host: form.serverHost)
        defer { server.stop() }
        let target = form.target.replacingOccurrences(of: "PORT", with: "\(server.port)")

        let result = try PinctlProcess.run(["check", target, "--format", "json"] + LiveRun.anchors)

        #expect(result.status == 0, "\(result)")
        let object = try LiveRun.object(result.stdout)
        let hostPort = form.domain.contains(":") ? "[\(form.domain)]:\(server.port)" : "\(form.domain):\(server.port)"
        #expect(object["target"] as? String == hostPort)
        #expect(object["domain"] as? String == form.domain)
        #expect(server.serverNamesReceived == [form.serverName])
    }

    @Test func servernameIsTheDomainCheckedAndAWrongOneIsAHostnameMismatch() throws {
        let server = try LiveRun.server()
        defer { server.stop() }

        let result = try PinctlProcess.run(["check", "localhost:\(server.port)", "--servername", "wrong.test",
                                            "--format", "json"] + LiveRun.anchors)

        #expect(result.status == 1, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect(object["domain"] as? String == "wrong.test")
        #expect(LiveRun.reasonCode(object) == "hostname-mismatch", "\(result)")
        #expect(server.lastServerName == "wrong.test")
    }

    @Test func ipv4OnlyReachesAnIPv4ServerAndIPv6OnlyDoesNot() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let target = "localhost:\(server.port)"

        let four = try PinctlProcess.run(["check", target, "-4", "--timeout", "2"] + LiveRun.anchors)
        #expect(four.status == 0, "\(four)")
        let received = server.serverNamesReceived.count

        // localhost has no IPv6 address on some machines (dns) and ::1 on others, where nothing listens (refused).
        let six = try PinctlProcess.run(["check", target, "-6", "--timeout", "2"] + LiveRun.anchors)
        #expect(six.status == 3, "\(six)")
        #expect(six.stderr.contains("localhost"), "\(six)")
        let literal = try PinctlProcess.run(["check", "127.0.0.1:\(server.port)", "-6", "--timeout", "2"]
            + LiveRun.anchors)
        #expect(literal.status == 3, "\(literal)")
        #expect(server.serverNamesReceived.count == received, "-6 never reached the IPv4 server")
    }

    @Test func ipv4OnlyDoesNotReachAnIPv6Server() throws {
        let server = try LiveRun.server(host: "::1")
        defer { server.stop() }

        let result = try PinctlProcess.run(["check", "[::1]:\(server.port)", "-4", "--timeout", "2"] + LiveRun.anchors)

        #expect(result.status == 3, "\(result)")
        #expect(server.serverNamesReceived.isEmpty)
    }

    @Test func publicKeyRejectionListsEveryKeyOfTheChainBesideThePinsAndTheirSource() throws {
        let server = try LiveRun.server()
        defer { server.stop() }

        let result = try PinctlProcess.run(["check", "localhost:\(server.port)", "--mode", "publickey",
                                            "--pins", "other-leaf.pem"] + LiveRun.anchors)

        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("REJECTED  mode publickey, 1 pin(s)"), "\(result)")
        #expect(result.stdout.contains("public key not pinned"), "\(result)")
        #expect(result.stdout.contains("#0 \(LiveRun.pin(of: "leaf.pem")) CN=pinning.test"), "\(result)")
        #expect(result.stdout.contains("#1 \(LiveRun.pin(of: "intermediate-ca.pem")) CN=pinctl Test Intermediate CA"))
        #expect(result.stdout.contains("#2 \(LiveRun.pin(of: "root-ca.pem")) CN=pinctl Test Root CA"), "\(result)")
        #expect(result.stdout.contains("pinned:"), "\(result)")
        #expect(result.stdout.contains("\(LiveRun.pin(of: "other-leaf.pem")) (other-leaf.pem)"), "\(result)")
    }

    @Test func certificateRejectionListsThePinnedCertificatesWithTheirSource() throws {
        let server = try LiveRun.server()
        defer { server.stop() }

        let result = try PinctlProcess.run(["check", "localhost:\(server.port)", "--mode", "certificate",
                                            "--pins", "other-leaf.pem"] + LiveRun.anchors)

        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("#0 CN=pinning.test  [presented]"), "\(result)")
        #expect(result.stdout.contains("pin    \(LiveRun.pin(of: "leaf.pem"))"), "\(result)")
        #expect(result.stdout.contains("pin    \(LiveRun.pin(of: "intermediate-ca.pem"))"), "\(result)")
        #expect(result.stdout.contains("pinned:"), "\(result)")
        #expect(result.stdout.contains("\(LiveRun.pin(of: "other-leaf.pem")) CN=pinning.test (other-leaf.pem)"),
                "\(result)")
    }
}
