internal import COpenSSL
import Glibc
import TextSyntax
import Transport

/// Connects to a server and returns the certificate chain its TLS handshake presents, verifying nothing.
public enum TLSClient {
    /// Resolves `host`, connects over TCP and completes a TLS (1.2 or later) handshake, all within `options.timeout`.
    ///
    /// `host` is a DNS name, an IPv4 literal or an IPv6 literal without brackets. The connection is closed (with a
    /// best-effort close_notify) before this returns. Failures are classified by `TLSConnectionError.Kind`, except
    /// one: a server that asked for a client certificate and then ended the handshake still yields the chain it
    /// presented, with the failure in `TLSHandshakeResult.handshakeFailure`.
    /// - Warning: Nothing about the chain is checked here: pass the result to the PolicyEngine.
    public static func handshake(
        host: String, port: UInt16, options: TLSConnectOptions
    ) throws(TLSConnectionError) -> TLSHandshakeResult {
        try handshake(host: host, port: port, options: options, deadline: Deadline(seconds: options.timeout))
    }

    /// `handshake(host:port:options:)` with a stand-in for getaddrinfo, for tests (IP literals never use it).
    package static func handshake(
        host: String, port: UInt16, options: TLSConnectOptions, lookup: @escaping NameResolver.Lookup
    ) throws(TLSConnectionError) -> TLSHandshakeResult {
        try handshake(host: host, port: port, options: options, deadline: Deadline(seconds: options.timeout),
                      lookup: lookup)
    }

    /// The handshake within a deadline the caller set, which several connections may share (the edges of one
    /// target); `options.timeout` is not read.
    package static func handshake(
        host: String, port: UInt16, options: TLSConnectOptions, deadline: Deadline,
        lookup: @escaping NameResolver.Lookup = NameResolver.systemLookup
    ) throws(TLSConnectionError) -> TLSHandshakeResult {
        // Lenient about "[::1]": brackets belong to URLs and host:port notation, not to the address.
        let host = DomainName(host).value
        let target = TargetName(host: host, port: port)
        let connection = try Connector.open(
            host: host, port: port, route: options.route, family: options.family, domain: options.serverName,
            deadline: deadline, lookup: lookup)
        let context = try TLSContext.client.get()
        return try handshake(over: connection, context: context, options: options, target: target, deadline: deadline)
    }

    /// The SNI to send: none for nil, empty or an IP literal (RFC 6066 allows only host names).
    static func sniName(_ serverName: String?) -> String? {
        guard let serverName, !serverName.isEmpty, !DomainName(serverName).isIPAddress else { return nil }
        return serverName
    }

    /// The SSL* lives only in this function: created, driven to the end of the handshake, shut down and freed.
    private static func handshake(
        over connection: TCPConnection, context: TLSContext, options: TLSConnectOptions, target: TargetName,
        deadline: Deadline
    ) throws(TLSConnectionError) -> TLSHandshakeResult {
        let serverName = sniName(options.serverName)
        OpenSSLError.clearQueue()
        defer { OpenSSLError.clearQueue() }
        let trace = SocketTrace(fd: connection.fd)
        let request = ClientCertificateRequest()
        // The BIO and the cert callback inside the SSL point at `trace` and `request` unretained: keep both alive
        // until SSL_free has run.
        return try withExtendedLifetime((trace, request)) { () throws(TLSConnectionError) -> TLSHandshakeResult in
            guard let ssl = SSL_new(context.pointer) else { throw setupFailure("SSL_new") }
            defer { SSL_free(ssl) }
            guard let bio = SocketBIO.make(trace) else { throw setupFailure("create the socket BIO") }
            // SSL_set_bio takes our one reference (used for reading and writing); SSL_free releases it.
            SSL_set_bio(ssl, bio, bio)
            SSL_set_connect_state(ssl)
            request.observe(ssl)
            try apply(options, to: ssl, target: target)
            if let serverName, COpenSSLShim_SSL_set_tlsext_host_name(ssl, serverName) != 1 {
                throw TLSConnectionError(.handshake, "cannot send \(serverName) as the server name (SNI) to \(target)")
            }

            // A server that asked for a client certificate may end the handshake when none comes, after presenting
            // its chain: that chain is still judged, with the failure beside it. Every other failure stands.
            var failure: TLSConnectionError?
            do throws(TLSConnectionError) {
                try drive(ssl, trace: trace, target: target, deadline: deadline)
            } catch where request.wasReceived {
                failure = error
            } catch {
                throw narrowed(error, options)
            }

            let presented: [X509Certificate]
            do throws(TLSConnectionError) {
                presented = try PresentedChain.read(from: ssl, target: target, memo: options.certificateMemo)
            } catch {
                // No chain to judge after all: then the handshake's own failure is the one to report.
                if let failure, error.kind == .noCertificate { throw failure }
                throw error
            }
            let version = String(cString: SSL_get_version(ssl))
            // get0: the cipher and its name belong to the SSL (the session has one from the ServerHello on).
            let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) }
            // Best effort: one close_notify, without waiting for the server's (a non-blocking call returns at once).
            // Never after a fatal error, which OpenSSL forbids.
            if failure == nil { _ = SSL_shutdown(ssl) }
            var result = TLSHandshakeResult(
                presented: presented, protocolVersion: version, cipher: cipher ?? "(none)",
                peerAddress: connection.peer.description, clientCertificateRequested: request.wasReceived,
                handshakeFailure: failure)
            if options.requestsOCSPStaple { result.stapledOCSPResponse = stapledResponse(ssl) }
            if options.requestsSCTs { result.sentSCTs = sentSCTs(ssl) }
            return result
        }
    }

    /// Calls SSL_do_handshake until it completes, waiting on the socket in between, never past the deadline.
    private static func drive(
        _ ssl: OpaquePointer, trace: SocketTrace, target: TargetName, deadline: Deadline
    ) throws(TLSConnectionError) {
        while true {
            let result = SSL_do_handshake(ssl)
            if result == 1 { return }
            let error = SSL_get_error(ssl, result)
            let events: Int32
            switch error {
            case SSL_ERROR_WANT_READ: events = Int32(POLLIN)
            case SSL_ERROR_WANT_WRITE: events = Int32(POLLOUT)
            default: throw HandshakeFailure.classify(sslError: error, trace: trace, target: target)
            }
            switch SocketWait.wait(trace.fd, for: events, until: deadline) {
            case .ready:
                continue
            case .timedOut:
                throw HandshakeFailure.timeout(trace: trace, target: target, deadline: deadline)
            case .failed(let code):
                throw TLSConnectionError(.handshake, "cannot wait for \(target): poll failed: \(Errno(code))")
            }
        }
    }

    static func setupFailure(_ operation: String) -> TLSConnectionError {
        TLSConnectionError(.handshake, "cannot set up TLS: \(OpenSSLError.drain(operation))")
    }
}
