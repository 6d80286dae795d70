internal import COpenSSL
import Glibc
import Transport

/// Turns a failed SSL_do_handshake into the `TLSConnectionError` a user can act on.
///
/// The order matters: what the peer sent decides first (a web server answering in plain HTTP also closes the
/// connection, but "not a TLS server" is the useful diagnosis), then the socket's fate, then OpenSSL's reason.
enum HandshakeFailure {
    /// OpenSSL's reasons for a first record that is not TLS at all.
    private static let notTLSReasons: Set<Int32> = [
        SSL_R_WRONG_VERSION_NUMBER, SSL_R_PACKET_LENGTH_TOO_LONG, SSL_R_HTTP_REQUEST, SSL_R_HTTPS_PROXY_REQUEST,
        SSL_R_UNKNOWN_PROTOCOL,
    ]

    static func classify(sslError: Int32, trace: SocketTrace, target: TargetName) -> TLSConnectionError {
        let queue = drainQueue()
        let sslReasons = Set(queue.filter { $0.library == ERR_LIB_SSL }.map(\.reason))

        if !trace.firstBytes.isEmpty,
            !looksLikeTLS(trace.firstBytes) || !sslReasons.isDisjoint(with: notTLSReasons) {
            trace.collectUnread()
            return TLSConnectionError(.notTLS, "not a TLS server at \(target): \(describe(trace.firstBytes))")
        }
        // errno was captured by the BIO at the failing recv/send: OpenSSL's later calls cannot have changed it.
        switch trace.failure {
        case 0:
            break
        case ECONNRESET, EPIPE:
            return TLSConnectionError(.reset, "connection reset by \(target) during the TLS handshake")
        default:
            return TLSConnectionError(
                .handshake, "TLS handshake with \(target) failed: socket error: \(Errno(trace.failure))")
        }
        // A close during the handshake shows up either as end of file or as "unexpected eof while reading",
        // depending on timing: one error.
        if trace.sawEndOfFile || sslReasons.contains(SSL_R_UNEXPECTED_EOF_WHILE_READING) {
            let after = trace.received == 0 ? "before answering" : "after sending \(trace.received) bytes"
            return TLSConnectionError(.reset, "\(target) closed the connection during the TLS handshake, \(after)")
        }
        let reasons = queue.map(\.text)
        let detail = reasons.isEmpty
            ? "SSL_get_error \(sslError) with an empty error queue" : reasons.joined(separator: "; ")
        return TLSConnectionError(.handshake, "TLS handshake with \(target) failed: \(detail)")
    }

    static func timeout(trace: SocketTrace, target: TargetName, deadline: Deadline) -> TLSConnectionError {
        let detail = trace.received == 0
            ? "the peer sent nothing" : "the peer sent \(trace.received) bytes, then stalled"
        return TLSConnectionError(.timeout, "no TLS handshake with \(target) within \(deadline.allowance) (\(detail))")
    }

    /// A TLS record starts with a content type 20–24 and major version 3 (SSL 3.0 to TLS 1.3 alike).
    static func looksLikeTLS(_ bytes: [UInt8]) -> Bool {
        guard let type = bytes.first, (20...24).contains(type) else { return false }
        return bytes.count < 2 || bytes[1] == 3
    }

    /// The first line when it is printable text ("it answered 'HTTP/1.1 400 Bad Request'"), else the first bytes
    /// in hex.
    static func describe(_ bytes: [UInt8]) -> String {
        let longest = 100
        let line = bytes.prefix { $0 != 0x0D && $0 != 0x0A }
        if !line.isEmpty, line.allSatisfy({ (0x20...0x7E).contains($0) }) {
            let text = String(decoding: line.prefix(longest), as: UTF8.self)
            return "it answered '\(text)\(line.count > longest ? "…" : "")'"
        }
        let hex = bytes.prefix(8).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "it sent bytes that are not a TLS record (\(hex.joined(separator: " "))\(bytes.count > 8 ? " …" : ""))"
    }

    private struct QueuedError {
        let library: Int32
        let reason: Int32
        let text: String
    }

    private static func drainQueue() -> [QueuedError] {
        var errors: [QueuedError] = []
        while true {
            let code = ERR_get_error_all(nil, nil, nil, nil, nil)
            if code == 0 { return errors }
            errors.append(QueuedError(library: ERR_GET_LIB(code), reason: ERR_GET_REASON(code),
                                      text: OpenSSLError.reasonText(code)))
        }
    }
}
