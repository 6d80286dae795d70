import Foundation
import Testing
import TestSupport

/// `check --starttls` against scripted peers of every protocol: the upgrade succeeds and the chain is judged, or
/// the peer refuses, does not offer it, or misbehaves, and pinctl ends in exit 3, code `starttls`, within
/// `--timeout` + 1 s, quoting what the server said.
@Suite struct StartTLSTests {
    static let protocols = ["smtp", "imap", "pop3", "ftp", "xmpp", "postgres", "ldap"]

    /// The protocol's name as the messages give it.
    static let names = ["smtp": "SMTP", "imap": "IMAP", "pop3": "POP3", "ftp": "FTP", "xmpp": "XMPP",
                        "postgres": "PostgreSQL", "ldap": "LDAP"]

    /// Each refusal as the peer words it, which the message must quote.
    static let refusals = [
        "smtp": "'454 4.7.0 TLS not available due to local problem'",
        "imap": "'p2 NO TLS is not available'",
        "pop3": "'-ERR TLS unavailable'",
        "ftp": "'534 Local policy on server does not allow TLS'",
        "xmpp": "'<failure xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>",
        "postgres": "'N (the server does not accept SSL connections)'",
        "ldap": "'result code 53 (unwillingToPerform): TLS not configured'",
    ]

    static func arguments(_ name: String, port: UInt16) -> [String] {
        ["check", "127.0.0.1:\(port)", "--servername", "pinning.test", "--starttls", name, "--timeout", "1"]
            + LiveRun.anchors
    }

    @Test(arguments: protocols)
    func theUpgradeIsMadeAndTheChainJudged(_ name: String) throws {
        let peer = try StartTLSPeer(name)
        defer { peer.stop() }
        let result = try PinctlProcess.run(Self.arguments(name, port: peer.port) + ["--format", "json"])
        #expect(result.status == 0, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect(object["verdict"] as? String == "trusted")
        #expect(((object["chain"] as? [[String: Any]])?.first)?["spki"] as? String == LiveRun.pin(of: "leaf.pem"))
        switch name {
        case "smtp": #expect(peer.received.first == "EHLO [127.0.0.1]\r\n", "\(peer.received)")
        case "xmpp": #expect(peer.received.first?.contains("to='pinning.test'") == true, "\(peer.received)")
        case "imap": #expect(peer.received == ["p1 CAPABILITY\r\n", "p2 STARTTLS\r\n"])
        case "pop3": #expect(peer.received == ["CAPA\r\n", "STLS\r\n"])
        case "ftp": #expect(peer.received == ["AUTH TLS\r\n"])
        default: break
        }
    }

    @Test func withoutStartTLSTheSameServerIsNoTLSServer() throws {
        let peer = try StartTLSPeer("smtp")
        defer { peer.stop() }
        let result = try PinctlProcess.run(["check", "127.0.0.1:\(peer.port)", "--timeout", "1", "--format", "json"])
        #expect(result.status == 3)
        #expect(LiveRun.reasonCode(try LiveRun.object(result.stdout)) == "not-tls", "\(result)")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let behaviour: StartTLSPeer.Behaviour
        var testDescription: String { "\(name) \(behaviour.rawValue)" }
    }

    static let failures: [Case] = protocols.flatMap { name in
        StartTLSPeer.Behaviour.allCases.filter { behaviour in
            behaviour != .upgrades && (behaviour != .notOffered || ["smtp", "imap", "pop3", "xmpp"].contains(name))
        }.map { Case(name: name, behaviour: $0) }
    }

    @Test(arguments: failures)
    func aPeerThatDoesNotUpgradeIsExitThreeWithinTheTimeout(_ failure: Case) throws {
        let peer = try StartTLSPeer(failure.name, failure.behaviour)
        defer { peer.stop() }
        let (text, seconds) = try LiveRun.timed(Self.arguments(failure.name, port: peer.port))
        #expect(text.status == 3, "\(text)")
        let lines = LiveRun.lines(text.stderr)
        #expect(lines.count == 1, "\(text)")
        let line = String(lines.first ?? "")
        #expect(line.contains("127.0.0.1:\(peer.port)"), "\(text)")
        #expect(line.contains(Self.names[failure.name] ?? "?"), "\(text)")
        switch failure.behaviour {
        case .refuses: #expect(line.contains("refused") && line.contains(Self.refusals[failure.name] ?? "?"), "\(line)")
        case .notOffered: #expect(line.contains("does not offer STARTTLS"), "\(line)")
        case .injects: #expect(line.contains("after agreeing to STARTTLS and before the TLS handshake"), "\(line)")
        case .silent: #expect(line.contains("within 1 s"), "\(line)")
        default: break
        }
        let bound = try LiveRun.failureBound(timeout: 1)
        #expect(seconds < bound, "took \(seconds) s")

        let json = try PinctlProcess.run(Self.arguments(failure.name, port: peer.port) + ["--format", "json"])
        #expect(LiveRun.reasonCode(try LiveRun.object(json.stdout)) == "starttls", "\(json)")
    }

    @Test func theLDAPRequestIsTheOneRFC4511Spells() throws {
        let peer = try StartTLSPeer("ldap")
        defer { peer.stop() }
        _ = try PinctlProcess.run(Self.arguments("ldap", port: peer.port))
        // The peer answers only a byte-exact request; here it is, as the peer logs binary messages.
        #expect(peer.received == [StartTLSPeer.ldapRequest.map { String($0, radix: 16) }.joined(separator: " ")])
    }

    @Test func autoKeepsPlainTLSOnAPortWithoutAProtocol() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let result = try PinctlProcess.run(["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test",
                                            "--starttls", "auto"] + LiveRun.anchors)
        #expect(result.status == 0, "\(result)")
    }

    @Test func anUnknownProtocolIsAUsageError() throws {
        let result = try PinctlProcess.run(["check", "127.0.0.1:25", "--starttls", "nntp"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--starttls"), "\(result)")
    }
}
