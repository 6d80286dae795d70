internal import COpenSSL
import Foundation
import Synchronization

/// The server names (SNI) received, one entry per ClientHello: nil when the client sent none.
final class ServerNameRecorder: Sendable {
    private let names = Mutex<[String?]>([])

    var received: [String?] { names.withLock { $0 } }

    func record(_ name: String?) { names.withLock { $0.append(name) } }
}

/// How the test server negotiates, beyond the chain it presents.
public struct TestServerOptions: Sendable {
    /// Whether the server asks the client for a certificate, and whether it ends the handshake when none comes.
    public enum ClientCertificate: Sendable {
        case notRequested
        /// SSL_VERIFY_PEER: asks, and goes on without one.
        case requested
        /// SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT: asks, and ends the handshake without one.
        case required
    }

    /// The highest protocol version the server accepts.
    public enum MaximumVersion: Sendable {
        case tls12, tls13
    }

    public var clientCertificate: ClientCertificate
    public var maximumVersion: MaximumVersion
    /// Ends every TLS 1.2 handshake with an internal-error alert after the client has its chain, just before the
    /// server's Finished: a failure that has nothing to do with client certificates.
    public var failsBeforeFinished: Bool

    public init(
        clientCertificate: ClientCertificate = .notRequested, maximumVersion: MaximumVersion = .tls13,
        failsBeforeFinished: Bool = false
    ) {
        self.clientCertificate = clientCertificate
        self.maximumVersion = maximumVersion
        self.failsBeforeFinished = failsBeforeFinished
    }
}

/// A server `SSL_CTX*`, owning it, that presents exactly the configured chain in the configured order.
// @unchecked Sendable: configured completely in init and only read afterwards (SSL_new), which OpenSSL allows from
// any thread.
final class TestServerContext: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Strong: the SSL_CTX's servername callback holds it unretained.
    private let recorder: ServerNameRecorder

    /// `chainPEM` files are read in order; the first certificate is the leaf, every later one is sent after it.
    init(
        chainPEM: [String], keyPath: String, options: TestServerOptions, recorder: ServerNameRecorder
    ) throws(TestServerError) {
        ERR_clear_error()
        guard let method = TLS_server_method(), let context = SSL_CTX_new(method) else {
            throw Self.failure("SSL_CTX_new")
        }
        // Owned from here: deinit frees it if anything below throws.
        pointer = context
        self.recorder = recorder

        var certificates: [OpaquePointer] = []
        // PEM_read_bio_X509 gave us +1 on each; SSL_CTX_use_certificate and add1_chain_cert take their own.
        defer { certificates.forEach { X509_free($0) } }
        for path in chainPEM {
            certificates += try Self.readCertificates(path)
        }
        guard let leaf = certificates.first else { throw TestServerError("no certificate in \(chainPEM)") }
        guard SSL_CTX_use_certificate(context, leaf) == 1 else { throw Self.failure("use certificate") }
        for certificate in certificates.dropFirst() {
            guard COpenSSLShim_SSL_CTX_add1_chain_cert(context, certificate) == 1 else {
                throw Self.failure("add chain certificate")
            }
        }
        guard SSL_CTX_use_PrivateKey_file(context, keyPath, SSL_FILETYPE_PEM) == 1 else {
            throw Self.failure("load key \(keyPath)")
        }
        guard SSL_CTX_check_private_key(context) == 1 else { throw Self.failure("match key \(keyPath)") }
        // Send the configured chain as it is: never complete it from a store. (The chain is never rebuilt either:
        // SSL_CTX_build_cert_chain is not called.) set_mode returns the new mode bits, not a status.
        _ = COpenSSLShim_SSL_CTX_set_mode(context, Int(SSL_MODE_NO_AUTO_CHAIN))
        try Self.configure(context, options)

        _ = COpenSSLShim_SSL_CTX_set_tlsext_servername_arg(context, Unmanaged.passUnretained(recorder).toOpaque())
        _ = COpenSSLShim_SSL_CTX_set_tlsext_servername_callback(context, recordServerName)
    }

    deinit { SSL_CTX_free(pointer) }

    private static func configure(_ context: OpaquePointer, _ options: TestServerOptions) throws(TestServerError) {
        // A client that sends a certificate anyway is never verified against anything: no test needs that.
        switch options.clientCertificate {
        case .notRequested: SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        case .requested: SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        case .required: SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        }
        let version = switch options.maximumVersion {
        case .tls12: TLS1_2_VERSION
        case .tls13: TLS1_3_VERSION
        }
        guard COpenSSLShim_SSL_CTX_set_max_proto_version(context, version) == 1 else {
            throw failure("set the maximum protocol version")
        }
        // A TLS 1.2 server makes its session ticket right before its Finished; refusing to make one is fatal.
        if options.failsBeforeFinished, SSL_CTX_set_tlsext_ticket_key_evp_cb(context, refuseTicket) != 1 {
            throw failure("set the session ticket callback")
        }
    }

    /// Every certificate in a PEM file, in order, each a +1 reference the caller frees.
    private static func readCertificates(_ path: String) throws(TestServerError) -> [OpaquePointer] {
        guard let bio = BIO_new_file(path, "r") else { throw failure("open \(path)") }
        defer { BIO_free(bio) }
        var certificates: [OpaquePointer] = []
        while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
            certificates.append(certificate)
        }
        // The end of the file leaves PEM_R_NO_START_LINE behind.
        ERR_clear_error()
        guard !certificates.isEmpty else { throw TestServerError("no certificate in \(path)") }
        return certificates
    }

    private static func failure(_ operation: String) -> TestServerError {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            reasons.append(ERR_reason_error_string(code).map { String(cString: $0) } ?? "error \(code)")
        }
        return TestServerError("\(operation) failed: \(reasons.joined(separator: "; "))")
    }
}

/// OpenSSL calls this for every ClientHello, with or without SNI, before the server answers: so the name is
/// recorded before the client can finish its handshake, and a test reading it afterwards never races.
private let recordServerName: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutableRawPointer?)
    -> Int32 = { ssl, _, argument in
        guard let argument else { return SSL_TLSEXT_ERR_OK }
        let recorder = Unmanaged<ServerNameRecorder>.fromOpaque(argument).takeUnretainedValue()
        // get0: the name belongs to the SSL.
        recorder.record(SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0) })
        return SSL_TLSEXT_ERR_OK
    }

/// Fails every session ticket: OpenSSL 3.0 answers a negative return with an internal-error alert.
private let refuseTicket: @convention(c) (
    OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, OpaquePointer?, OpaquePointer?, Int32
) -> Int32 = { _, _, _, _, _, _ in -1 }
