/// The plain-text protocols whose servers upgrade a connection to TLS on request (`--starttls`).
public enum StartTLSProtocol: String, Sendable, CaseIterable {
    /// RFC 3207: EHLO, then STARTTLS.
    case smtp
    /// RFC 3501 §6.2.1: CAPABILITY, then STARTTLS.
    case imap
    /// RFC 2595 §4: CAPA, then STLS.
    case pop3
    /// RFC 4217: AUTH TLS.
    case ftp
    /// RFC 6120 §5: a stream header, its features, then <starttls/>.
    case xmpp
    /// PostgreSQL's SSLRequest message.
    case postgres
    /// RFC 4511 §4.14: the StartTLS extended operation.
    case ldap

    /// The protocol a well-known port speaks (`--starttls auto`); nil for a port that speaks TLS from the start
    /// (443, 465, 993, 995, 636, …) or one pinctl does not know.
    public static func wellKnown(port: UInt16) -> StartTLSProtocol? {
        switch port {
        case 25, 587: .smtp
        case 143: .imap
        case 110: .pop3
        case 21: .ftp
        case 5222: .xmpp
        case 5432: .postgres
        case 389: .ldap
        default: nil
        }
    }

    /// What each step is called in messages: "SMTP".
    var displayName: String {
        switch self {
        case .smtp: "SMTP"
        case .imap: "IMAP"
        case .pop3: "POP3"
        case .ftp: "FTP"
        case .xmpp: "XMPP"
        case .postgres: "PostgreSQL"
        case .ldap: "LDAP"
        }
    }
}

/// One STARTTLS exchange in progress: the stream, who is at the other end, and how failures read.
struct StartTLSDialogue {
    let stream: SocketStream
    let target: TargetName
    let protocolName: String
    let deadline: Deadline

    /// The most one line or message may hold.
    static let lineLimit = 8 * 1024
    /// The most lines one reply may span.
    static let replyLines = 200

    /// Sends a command; `step` names the answer awaited next, for the message if sending fails.
    func send(_ text: String) throws(TLSConnectionError) {
        do {
            try stream.write(Array(text.utf8))
        } catch {
            throw failure(error, waitingFor: "answer to \(Self.command(text))")
        }
    }

    /// One line of the answer `step` names ("greeting", "answer to EHLO").
    func readLine(_ step: String) throws(TLSConnectionError) -> String {
        do {
            return String(decoding: try stream.readLine(limit: Self.lineLimit), as: UTF8.self)
        } catch {
            throw failure(error, waitingFor: step)
        }
    }

    func read(count: Int, _ step: String) throws(TLSConnectionError) -> [UInt8] {
        do {
            return try stream.read(count: count)
        } catch {
            throw failure(error, waitingFor: step)
        }
    }

    /// The server's answer said no: "mail.example.com:25 refused STARTTLS (SMTP): '454 TLS not available'".
    func refused(_ what: String, answer: String) -> TLSConnectionError {
        TLSConnectionError(.startTLS, "\(target) refused \(what) (\(protocolName)): \(PeerText.quote(Array(answer.utf8)))")
    }

    /// The server never offered the upgrade.
    func notOffered(_ detail: String) -> TLSConnectionError {
        TLSConnectionError(.startTLS, "\(target) does not offer STARTTLS (\(protocolName)): \(detail)")
    }

    /// An answer that is not the protocol at all.
    func garbage(_ step: String, _ answer: [UInt8]) -> TLSConnectionError {
        TLSConnectionError(.startTLS, "\(target) does not speak \(protocolName): the \(step) was \(PeerText.quote(answer))")
    }

    /// A read or write that did not complete, while waiting for the answer `step` names.
    func failure(_ error: SocketStream.Failure, waitingFor step: String) -> TLSConnectionError {
        switch error {
        case .timedOut(let received):
            let detail = received == 0 ? "" : ": it sent \(PeerText.quote(stream.pending)), then stalled"
            return TLSConnectionError(
                .startTLS, "no \(step) from \(target) within \(deadline.allowance) (\(protocolName))\(detail)")
        case .closed:
            return TLSConnectionError(.startTLS, "\(target) closed the connection; pinctl was waiting for the \(step) "
                + "(\(protocolName))")
        case .tooLong(let limit):
            return TLSConnectionError(.startTLS, "\(target) sent more than \(limit) bytes without ending the \(step) "
                + "(\(protocolName))")
        case .failed(let code):
            return TLSConnectionError(
                .startTLS, "connection to \(target) failed while waiting for the \(step) (\(protocolName)): \(code)")
        }
    }

    /// After the server agreed, the next bytes must be the TLS handshake's, from the client: anything the server
    /// sent first could have been injected before the upgrade (CVE-2011-0411 and its kin), and is refused.
    func expectNothingPending() throws(TLSConnectionError) {
        guard !stream.pending.isEmpty else { return }
        throw TLSConnectionError(.startTLS, "\(target) sent \(stream.pending.count) bytes after agreeing to STARTTLS "
            + "and before the TLS handshake (\(protocolName)): \(PeerText.quote(stream.pending)); refused, as such "
            + "bytes could have been injected")
    }

    /// "EHLO" from "EHLO [127.0.0.1]\r\n": the command's name for messages.
    static func command(_ text: String) -> String {
        String(text.prefix { $0 != " " && $0 != "\r" && $0 != "\n" })
    }
}
