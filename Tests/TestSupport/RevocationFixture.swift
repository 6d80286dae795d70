import Foundation
import Glibc

/// The revocation PKI of `scripts/make-revocation-pki.sh`, made in a directory of the test's, with what its leaves
/// point at running on loopback: an `openssl ocsp` responder (or, `silentResponder`, a listener that accepts and
/// never answers) and a tiny HTTP server for `ca.crl`. Every expected status comes from the openssl CLI's own
/// database and responses, never from pinctl. `stop()` ends both servers.
// @unchecked Sendable: immutable after init; the process and listeners are only stopped.
public final class RevocationFixture: @unchecked Sendable {
    /// The evaluation time of every revocation test: inside the 20-year span the script makes everything valid for,
    /// and after any moment the tests run (`openssl ocsp` signs with thisUpdate = now; it cannot backdate).
    public static let at = "2036-01-01T00:00:00Z"

    public let directory: String
    public let ocspURL: String
    public let crlURL: String
    private let responder: BackgroundProcess?
    private let silent: LoopbackListener?
    private let crlServer: LoopbackListener
    private let stopping = StopFlag()

    public init(in directory: String, silentResponder: Bool = false) throws {
        signal(SIGPIPE, SIG_IGN)
        self.directory = directory
        let crlServer = try LoopbackListener(host: "127.0.0.1")
        let silent = silentResponder ? try LoopbackListener(host: "127.0.0.1") : nil
        let ocspPort = try silent?.port ?? Self.freePort()
        ocspURL = "http://127.0.0.1:\(ocspPort)/ocsp"
        crlURL = "http://127.0.0.1:\(crlServer.port)/ca.crl"
        self.crlServer = crlServer
        self.silent = silent

        // Five minutes, not the default minute: it makes a dozen keys and certificates, on a loaded machine too.
        let script = try Subprocess.run(
            "/bin/sh", [Certs.root + "/scripts/make-revocation-pki.sh", directory, ocspURL, crlURL], timeout: 300)
        guard script.status == 0 else {
            throw TestServerError("make-revocation-pki.sh exited \(script.status): \(script.stderr)")
        }

        let crl = directory + "/ca.crl"
        crlServer.start { peer in
            let request = peer.readFirstFlight(seconds: 2)
            let body = (try? Data(contentsOf: URL(fileURLWithPath: crl))).map { [UInt8]($0) } ?? []
            let found = String(decoding: request, as: UTF8.self).hasPrefix("GET /ca.crl ")
            let head = found
                ? "HTTP/1.0 200 OK\r\nContent-Type: application/pkix-crl\r\nContent-Length: \(body.count)\r\n\r\n"
                : "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n"
            peer.write(Array(head.utf8) + (found ? body : []))
            peer.closeGracefully()
        }
        silent?.start { peer in peer.holdUntilStopped(seconds: 30) }

        if silentResponder {
            responder = nil
        } else {
            let process = try BackgroundProcess(
                "openssl", ["ocsp", "-port", String(ocspPort), "-index", "index.txt", "-CA", "ca.pem",
                            "-rsigner", "responder.pem", "-rkey", "responder.key", "-ndays", "7300"],
                in: directory, capture: .standardOutputAndError)
            responder = process
            // The "ACCEPT" line it prints once it listens. Not a probe connection: the responder serves one
            // connection at a time and would wait on a probe that sends nothing, stalling every later request.
            guard process.waitForOutput(seconds: 10, { $0.contains("ACCEPT") ? true : nil }) == true else {
                stop()
                throw TestServerError("openssl ocsp did not start on port \(ocspPort): \(process.output)")
            }
        }
    }

    deinit { stop() }

    /// Ends the responder and the listeners, and waits for them; idempotent.
    public func stop() {
        guard stopping.set() else { return }
        responder?.stop()
        silent?.stop()
        crlServer.stop()
    }

    /// A port nothing listens on right now: bound, read and released, for `openssl ocsp -port`, which binds a port
    /// it is given but cannot say which one it chose (its leaves must name the port before it starts).
    ///
    /// Below the ephemeral range (32768–60999 by default): an ephemeral port, once released, could be handed to any
    /// other socket of the suite before `openssl ocsp` binds it ("openssl ocsp did not start"); a port chosen here is
    /// taken only by another fixture choosing the same one.
    static func freePort() throws -> UInt16 {
        for _ in 0..<100 {
            let port = UInt16.random(in: 20_000..<32_000)
            guard let listener = try? LoopbackListener(host: "127.0.0.1", port: port) else { continue }
            listener.stop()
            return port
        }
        throw TestServerError("no free port below the ephemeral range for openssl ocsp")
    }
}
