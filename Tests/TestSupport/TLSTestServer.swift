internal import COpenSSL
import Foundation
import Glibc
import Synchronization

/// An in-process TLS server on a loopback address that presents exactly the chain it is given.
///
/// It accepts one connection at a time on a background thread, completes the handshake (each connection gets at
/// most `handshakeSeconds`, so a bad client cannot wedge it), sends close_notify and closes.
// @unchecked Sendable: the mutable state lives in `ServingState`, guarded by its lock.
public final class TLSTestServer: @unchecked Sendable {
    /// How long one connection may take before the server drops it.
    public static let handshakeSeconds = 3.0

    /// The ephemeral port the server listens on.
    public let port: UInt16
    /// The address it listens on: "127.0.0.1" or "::1".
    public let host: String
    private let listener: LoopbackListener
    private let state: ServingState

    /// Serves the certificates of `chainPEM` (leaf first, then the rest in file order) with the key at `keyPath`.
    public init(
        chainPEM: [String], keyPath: String, host: String = "127.0.0.1", options: TestServerOptions = .init()
    ) throws {
        // OpenSSL writes with write(2): a client that hangs up would otherwise kill the test process.
        signal(SIGPIPE, SIG_IGN)
        let recorder = ServerNameRecorder()
        state = ServingState(
            context: try TestServerContext(chainPEM: chainPEM, keyPath: keyPath, options: options, recorder: recorder),
            options: options, recorder: recorder)
        listener = try LoopbackListener(host: host)
        self.host = host
        port = listener.port
        listener.start { [state] connection in Self.handshake(on: connection, state: state) }
    }

    /// Serves one PEM file: the leaf, then any chain certificates it holds.
    public convenience init(
        chainPEM: String, keyPath: String, host: String = "127.0.0.1", options: TestServerOptions = .init()
    ) throws {
        try self.init(chainPEM: [chainPEM], keyPath: keyPath, host: host, options: options)
    }

    deinit { stop() }

    /// Presents a different chain from the next connection on (a certificate rotation), with the same options.
    public func serve(chainPEM: [String], keyPath: String) throws {
        state.replace(try TestServerContext(
            chainPEM: chainPEM, keyPath: keyPath, options: state.options, recorder: state.recorder))
    }

    public func serve(chainPEM: String, keyPath: String) throws {
        try serve(chainPEM: [chainPEM], keyPath: keyPath)
    }

    /// The SNI of every ClientHello received so far, in order; nil where the client sent none.
    public var serverNamesReceived: [String?] { state.recorder.received }

    /// The SNI of the latest ClientHello (nil also when none was received: see `serverNamesReceived`).
    public var lastServerName: String? { serverNamesReceived.last ?? nil }

    /// Handshakes that completed on the server's side.
    ///
    /// Counted when the server's SSL_do_handshake returns, which can be a little after the client's: right after a
    /// client handshake this may not include it yet (unlike `serverNamesReceived`, recorded before the server answers).
    public var handshakesCompleted: Int { state.handshakes }

    /// Stops accepting, waits for the serving thread and closes the listener; idempotent, also run by deinit.
    public func stop() { listener.stop() }

    private static func handshake(on connection: PeerConnection, state: ServingState) {
        if ServerHandshake.run(on: connection, context: state.context) { state.countHandshake() }
    }
}

/// What the serving thread shares with the test: the current context and the counters.
private final class ServingState: Sendable {
    let options: TestServerOptions
    let recorder: ServerNameRecorder
    private let state: Mutex<(current: TestServerContext, completed: Int)>

    init(context: TestServerContext, options: TestServerOptions, recorder: ServerNameRecorder) {
        state = Mutex((context, 0))
        self.options = options
        self.recorder = recorder
    }

    var context: TestServerContext { state.withLock { $0.current } }
    var handshakes: Int { state.withLock { $0.completed } }

    func replace(_ context: TestServerContext) { state.withLock { $0.current = context } }
    func countHandshake() { state.withLock { $0.completed += 1 } }
}
