internal import COpenSSL
import Foundation
import Glibc
import Synchronization

/// A scripted server of one STARTTLS protocol on loopback: it speaks the protocol's greeting and upgrade exchange as
/// a real server would, then completes a TLS handshake presenting leaf.pem and intermediate-ca.pem, or misbehaves
/// in one way. Every answer is written by hand from the protocol's RFC, never by the code under test.
// @unchecked Sendable: immutable after init except the log, which is guarded by its lock.
public final class StartTLSPeer: @unchecked Sendable {
    public enum Behaviour: String, Sendable, CaseIterable {
        /// Agrees to the upgrade and completes the handshake.
        case upgrades
        /// Answers the upgrade command with a refusal.
        case refuses
        /// Does not list the upgrade among its capabilities (SMTP, IMAP, POP3, XMPP).
        case notOffered
        /// Accepts, then sends nothing.
        case silent
        /// Answers with bytes that are not the protocol.
        case garbage
        /// Closes the connection where its first answer is due.
        case closes
        /// Agrees, and sends more bytes right behind its agreement (a STARTTLS injection).
        case injects
    }

    public let port: UInt16
    private let listener: LoopbackListener
    private let log: PeerLog

    /// Every line or message the client sent, in order (binary ones in hex).
    public var received: [String] { log.lines }

    public init(_ protocolName: String, _ behaviour: Behaviour = .upgrades) throws {
        signal(SIGPIPE, SIG_IGN)
        let context = try TestServerContext(
            chainPEM: [Certs.path("leaf.pem"), Certs.path("intermediate-ca.pem")], keyPath: Certs.path("leaf.key"),
            options: TestServerOptions(), recorder: ServerNameRecorder())
        let log = PeerLog()
        self.log = log
        listener = try LoopbackListener(host: "127.0.0.1")
        port = listener.port
        listener.start { connection in
            let script = Script(connection: connection, behaviour: behaviour, log: log)
            guard script.run(protocolName) else { return }
            ServerHandshake.run(on: connection, context: context)
        }
    }

    deinit { stop() }

    public func stop() { listener.stop() }

    /// The LDAP StartTLS request as RFC 4511 §4.14.1 and X.690 spell it, message 1, written out by hand.
    public static let ldapRequest: [UInt8] = [0x30, 0x1D, 0x02, 0x01, 0x01, 0x77, 0x18, 0x80, 0x16]
        + Array("1.3.6.1.4.1.1466.20037".utf8)
}

/// One connection's exchange; `run` returns true when the handshake should follow.
private struct Script {
    let connection: PeerConnection
    let behaviour: StartTLSPeer.Behaviour
    let log: PeerLog

    func run(_ protocolName: String) -> Bool {
        switch protocolName {
        case "smtp":
            return greet("220 mail.pinning.test ESMTP ready\r\n")
                && expect("EHLO") && answer(behaviour == .notOffered
                    ? "250-mail.pinning.test\r\n250-PIPELINING\r\n250 8BITMIME\r\n"
                    : "250-mail.pinning.test\r\n250-PIPELINING\r\n250-STARTTLS\r\n250 8BITMIME\r\n")
                && expect("STARTTLS") && upgrade("220 2.0.0 Ready to start TLS\r\n",
                                                  refusal: "454 4.7.0 TLS not available due to local problem\r\n")
        case "imap":
            guard greet("* OK IMAP4rev1 server ready\r\n"), let tag = expectTag("CAPABILITY") else {
                return false
            }
            let capabilities = behaviour == .notOffered ? "IMAP4rev1 LOGINDISABLED" : "IMAP4rev1 STARTTLS LOGINDISABLED"
            guard answer("* CAPABILITY \(capabilities)\r\n\(tag) OK CAPABILITY completed\r\n"),
                let second = expectTag("STARTTLS")
            else { return false }
            return upgrade("\(second) OK Begin TLS negotiation now\r\n", refusal: "\(second) NO TLS is not available\r\n")
        case "pop3":
            return greet("+OK POP3 server ready\r\n") && expect("CAPA")
                && answer(behaviour == .notOffered ? "+OK\r\nUSER\r\nUIDL\r\n.\r\n" : "+OK\r\nUSER\r\nSTLS\r\nUIDL\r\n.\r\n")
                && expect("STLS") && upgrade("+OK Begin TLS negotiation\r\n", refusal: "-ERR TLS unavailable\r\n")
        case "ftp":
            return greet("220-Welcome to the pinning.test FTP service\r\n220 Ready\r\n") && expect("AUTH TLS")
                && upgrade("234 AUTH TLS OK.\r\n", refusal: "534 Local policy on server does not allow TLS\r\n")
        case "xmpp":
            guard let header = first(), header.contains("<stream:stream") else { return false }
            let features = behaviour == .notOffered
                ? "<stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/></stream:features>"
                : "<stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls>"
                    + "</stream:features>"
            return answer("<?xml version='1.0'?><stream:stream from='pinning.test' id='c2s1' xmlns='jabber:client' "
                + "xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>" + features)
                && expect("<starttls") && upgrade("<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>",
                                                  refusal: "<failure xmlns='urn:ietf:params:xml:ns:xmpp-tls'/></stream:stream>")
        case "postgres":
            guard let request = firstBytes(), request == [0, 0, 0, 8, 0x04, 0xD2, 0x16, 0x2F] else { return false }
            return upgrade("S", refusal: "N")
        case "ldap":
            guard let request = firstBytes(), request == StartTLSPeer.ldapRequest else { return false }
            let success: [UInt8] = [0x30, 0x0C, 0x02, 0x01, 0x01, 0x78, 0x07, 0x0A, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00]
            let diagnostic = Array("TLS not configured".utf8)
            let refusal: [UInt8] = [0x30, 0x1E, 0x02, 0x01, 0x01, 0x78, 0x19, 0x0A, 0x01, 0x35, 0x04, 0x00, 0x04,
                                    UInt8(diagnostic.count)] + diagnostic
            return upgrade(bytes: success, refusal: refusal)
        default:
            return false
        }
    }

    /// The server's first words, or the misbehaviour that replaces them.
    private func greet(_ text: String) -> Bool {
        guard misbehaveFirst() else { return false }
        return answer(text)
    }

    /// For protocols where the client speaks first: its first message, then the misbehaviour if any.
    private func first() -> String? {
        guard let bytes = firstBytes() else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func firstBytes() -> [UInt8]? {
        let bytes = connection.readFirstFlight(seconds: 3)
        log.add(bytes)
        guard !bytes.isEmpty, misbehaveFirst() else { return nil }
        return bytes
    }

    /// Silence, garbage or a close where the first answer is due; true to go on.
    private func misbehaveFirst() -> Bool {
        switch behaviour {
        case .silent:
            connection.holdUntilStopped(seconds: HostilePeer.holdSeconds)
            return false
        case .garbage:
            connection.write([0x01, 0x02, 0xFF] + Array(" this is no protocol at all\r\n".utf8))
            connection.closeGracefully()
            return false
        case .closes:
            return false
        default:
            return true
        }
    }

    private func answer(_ text: String) -> Bool { connection.write(Array(text.utf8)) }

    /// Reads the client's next line; true when it starts with `command`.
    private func expect(_ command: String) -> Bool {
        guard let line = readLine() else { return false }
        return line.uppercased().hasPrefix(command.uppercased())
    }

    /// Reads an IMAP command line "TAG COMMAND"; returns the tag when the command matches.
    private func expectTag(_ command: String) -> String? {
        guard let line = readLine() else { return nil }
        let words = line.split(separator: " ")
        guard words.count == 2, words[1].uppercased() == command else { return nil }
        return String(words[0])
    }

    private func upgrade(_ agreement: String, refusal: String) -> Bool {
        upgrade(bytes: Array(agreement.utf8), refusal: Array(refusal.utf8))
    }

    private func upgrade(bytes agreement: [UInt8], refusal: [UInt8]) -> Bool {
        switch behaviour {
        case .refuses:
            connection.write(refusal)
            connection.closeGracefully()
            return false
        case .injects:
            connection.write(agreement + Array("250 injected before the handshake\r\n".utf8))
            connection.closeGracefully()
            return false
        default:
            return connection.write(agreement)
        }
    }

    /// One line from the client, CR LF (or `>` for XMPP's unterminated elements) ending it, within 3 s.
    private func readLine() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.last != 0x0A, line.last != UInt8(ascii: ">") {
            guard line.count < 4096, connection.wait(for: Int32(POLLIN), seconds: 3), recv(connection.fd, &byte, 1, 0) == 1
            else { return nil }
            line.append(byte)
        }
        log.add(line)
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// What a peer received.
private final class PeerLog: Sendable {
    private let stored = Mutex<[String]>([])

    var lines: [String] { stored.withLock { $0 } }

    func add(_ bytes: [UInt8]) {
        let text = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F || $0 == 0x0D || $0 == 0x0A }
            ? String(decoding: bytes, as: UTF8.self) : bytes.map { String($0, radix: 16) }.joined(separator: " ")
        stored.withLock { $0.append(text) }
    }
}
