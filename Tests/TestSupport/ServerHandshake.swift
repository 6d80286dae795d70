internal import COpenSSL
import Foundation
import Glibc

/// The TLS server's side of a handshake on an accepted connection, bounded by `TLSTestServer.handshakeSeconds`.
enum ServerHandshake {
    /// True when the handshake completed.
    @discardableResult
    static func run(on connection: PeerConnection, context: TestServerContext) -> Bool {
        defer { ERR_clear_error() }
        guard let ssl = SSL_new(context.pointer) else { return false }
        // SSL_set_fd's socket BIO does not close the descriptor: PeerConnection closes it after SSL_free.
        defer { SSL_free(ssl) }
        guard SSL_set_fd(ssl, connection.fd) == 1 else { return false }
        SSL_set_accept_state(ssl)
        let end = Date().addingTimeInterval(TLSTestServer.handshakeSeconds)
        while true {
            let result = SSL_do_handshake(ssl)
            if result == 1 {
                // Best effort: the client usually closes first.
                _ = SSL_shutdown(ssl)
                return true
            }
            let events: Int32
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ: events = Int32(POLLIN)
            case SSL_ERROR_WANT_WRITE: events = Int32(POLLOUT)
            default: return false
            }
            let left = end.timeIntervalSinceNow
            guard left > 0, connection.wait(for: events, seconds: left) else { return false }
        }
    }
}
