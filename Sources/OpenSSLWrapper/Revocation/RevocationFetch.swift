internal import COpenSSL
import Glibc
import Transport

/// Fetches OCSP responses and CRLs over plain HTTP with OpenSSL's own HTTP client (`OSSL_HTTP_REQ_CTX`), driven
/// over a socket pinctl opens: so the proxy (`http_proxy` as curl reads it, or `--proxy`) and the one deadline of
/// the target stay pinctl's, and OpenSSL parses the HTTP and bounds the body.
public enum RevocationFetch {
    /// The largest OCSP response or CRL accepted; a CRL of a big CA runs to a few MiB.
    public static let maximumBytes = 8 << 20

    /// POSTs the DER `request` to an OCSP responder (RFC 6960 appendix A.1) and returns its DER answer.
    package static func ocsp(
        url: String, request: [UInt8], proxies: ProxyConfiguration, family: AddressFamily,
        destination: RevocationDestination, deadline: Deadline
    ) -> Result<[UInt8], RevocationFetchFailure> {
        let parsed: OpaquePointer? = request.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_OCSP_REQUEST(nil, &cursor, buffer.count)
        }
        guard let ocspRequest = parsed else {
            return .failure(RevocationFetchFailure("cannot encode the OCSP request: \(OpenSSLError.drain("parse"))"))
        }
        defer { OCSP_REQUEST_free(ocspRequest) }
        return exchange(url: url, what: "OCSP responder", proxies: proxies, family: family, destination: destination,
                        deadline: deadline, expectedType: "application/ocsp-response") { context in
            OSSL_HTTP_REQ_CTX_set1_req(context, "application/ocsp-request", OCSP_REQUEST_it(), ocspRequest) == 1
        }
    }

    /// GETs a DER CRL from a distribution point (RFC 5280 §4.2.1.13: DER over HTTP).
    package static func crl(
        url: String, proxies: ProxyConfiguration, family: AddressFamily, destination: RevocationDestination,
        deadline: Deadline
    ) -> Result<[UInt8], RevocationFetchFailure> {
        exchange(url: url, what: "CRL distribution point", proxies: proxies, family: family, destination: destination,
                 deadline: deadline, expectedType: nil) { context in
            OSSL_HTTP_REQ_CTX_set1_req(context, nil, nil, nil) == 1
        }
    }

    /// One request and its answer on a new connection, within `deadline`.
    private static func exchange(
        url: String, what: String, proxies: ProxyConfiguration, family: AddressFamily,
        destination: RevocationDestination, deadline: Deadline, expectedType: String?, body: (OpaquePointer) -> Bool
    ) -> Result<[UInt8], RevocationFetchFailure> {
        // A refusal is reported as a connection that could not be made: the evidence is unavailable, as from a
        // responder that is down, and the next URL the certificate names is tried.
        func refused(_ why: String, nonPublic: Bool = false) -> Result<[UInt8], RevocationFetchFailure> {
            .failure(RevocationFetchFailure("\(what) \(url) not asked: \(why)", networkKind: .refused,
                                            refusedNonPublicDestination: nonPublic))
        }
        if let problem = RevocationDestination.unsafeByte(in: url) { return refused(problem) }
        guard let location = HTTPLocation(url) else {
            return .failure(RevocationFetchFailure("\(what) \(url): only http:// URLs are fetched"))
        }
        let proxy: ProxyServer?
        do {
            proxy = try proxies.proxy(forHTTPHost: location.host)
        } catch {
            return .failure(RevocationFetchFailure("\(what) \(url): \(error.description)", networkKind: .proxy))
        }
        if proxy != nil, let problem = destination.refusal(ofProxiedHost: location.host) {
            return refused(problem, nonPublic: true)
        }
        let connection: TCPConnection
        do throws(TLSConnectionError) {
            let host = proxy?.host ?? location.host
            let port = proxy?.port ?? location.port
            let addresses = try NameResolver.resolve(host: host, port: port, family: family, deadline: deadline)
            // Every address is checked and only the checked ones are connected to: a name resolved again later
            // could answer otherwise (DNS rebinding). The proxy is the user's own choice and is not checked.
            if proxy == nil, let address = addresses.first(where: { destination.refusedRange(of: $0) != nil }),
               let range = destination.refusedRange(of: address) {
                let named = SocketAddress.isIPLiteral(host) ? "\(host) is" : "\(host) resolves to \(address.host),"
                return refused("\(named) \(range)", nonPublic: true)
            }
            connection = try TCPConnection.connect(to: addresses, target: TargetName(host: host, port: port),
                                                   deadline: deadline)
        } catch {
            let kind: TLSConnectionError.Kind = proxy == nil ? error.kind : .proxy
            return .failure(RevocationFetchFailure("\(what) \(url): \(error.message)", networkKind: kind))
        }
        OpenSSLError.clearQueue()
        defer { OpenSSLError.clearQueue() }
        let trace = SocketTrace(fd: connection.fd)
        guard let bio = SocketBIO.make(trace) else { fatalError("BIO_new: out of memory") }
        // The context borrows the BIO (it frees only BIOs OSSL_HTTP_open made): freed here, after the context.
        defer { BIO_free(bio) }
        guard let context = OSSL_HTTP_REQ_CTX_new(bio, bio, 0) else { fatalError("OSSL_HTTP_REQ_CTX_new: out of memory") }
        defer { OSSL_HTTP_REQ_CTX_free(context) }
        let hostHeader = location.hostHeader
        // Through a proxy the request line carries the absolute URL (RFC 9112 §3.2.2); directly, only the path.
        guard OSSL_HTTP_REQ_CTX_set_request_line(context, expectedType == nil ? 0 : 1,
                                                 proxy == nil ? nil : location.bracketedHost,
                                                 proxy == nil ? nil : String(location.port), location.path) == 1,
            OSSL_HTTP_REQ_CTX_add1_header(context, "Host", hostHeader) == 1,
            OSSL_HTTP_REQ_CTX_add1_header(context, "User-Agent", "pinctl") == 1,
            proxy?.authorization.map({ OSSL_HTTP_REQ_CTX_add1_header(context, "Proxy-Authorization", $0) == 1 })
                ?? true,
            // Timeout 0: OpenSSL does not wait itself; every wait below is on pinctl's deadline.
            OSSL_HTTP_REQ_CTX_set_expected(context, expectedType, 1, 0, 0) == 1,
            body(context)
        else {
            return .failure(RevocationFetchFailure("cannot build the request to \(what) \(url): "
                + OpenSSLError.drain("build").description))
        }
        OSSL_HTTP_REQ_CTX_set_max_response_length(context, UInt(maximumBytes))
        let via = proxy.map { " through \($0)" } ?? ""
        while true {
            let step = OSSL_HTTP_REQ_CTX_nbio(context)
            if step == 1 { break }
            if step == 0 {
                let reasons = OpenSSLError.drainQueue()
                if trace.received == 0 {
                    let cause = trace.failure != 0 ? String(cString: strerror(trace.failure)) : "it closed the connection"
                    return .failure(RevocationFetchFailure("\(what) \(url)\(via) did not answer: \(cause)",
                                                           networkKind: .reset))
                }
                return .failure(RevocationFetchFailure("\(what) \(url)\(via) answered with no usable document: "
                    + (reasons.isEmpty ? "the HTTP exchange failed" : reasons.joined(separator: "; "))))
            }
            let events = Int32(BIO_test_flags(bio, BIO_FLAGS_WRITE) != 0 ? POLLOUT : POLLIN)
            switch SocketWait.wait(connection.fd, for: events, until: deadline) {
            case .ready:
                continue
            case .timedOut:
                return .failure(RevocationFetchFailure(
                    "no answer from \(what) \(url)\(via) within \(deadline.allowance)", networkKind: .timeout))
            case .failed(let code):
                return .failure(RevocationFetchFailure("cannot wait for \(what) \(url): \(Errno(code))",
                                                       networkKind: .reset))
            }
        }
        // get0: the memory BIO holding the body belongs to the context; copied before it is freed.
        guard let memory = OSSL_HTTP_REQ_CTX_get0_mem_bio(context) else {
            return .failure(RevocationFetchFailure("\(what) \(url) sent an empty answer"))
        }
        var data: UnsafeMutablePointer<CChar>?
        let length = COpenSSLShim_BIO_get_mem_data(memory, &data)
        guard length > 0, let data else { return .failure(RevocationFetchFailure("\(what) \(url) sent an empty answer")) }
        return .success(data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        })
    }
}

/// An `http://host[:port][/path]` URL, as AIA and CRL distribution points write them.
struct HTTPLocation {
    let host: String
    let port: UInt16
    let path: String

    init?(_ url: String) {
        guard url.lowercased().hasPrefix("http://") else { return nil }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let remainder = rest.dropFirst(authority.count)
        path = remainder.isEmpty ? "/" : (remainder.hasPrefix("/") ? String(remainder) : "/" + remainder)
        var hostPart = Substring(authority)
        var portText: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { return nil }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return nil }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portText = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, !hostPart.contains("@") else { return nil }
        host = String(hostPart)
        if let portText {
            guard let value = UInt16(portText), value > 0 else { return nil }
            port = value
        } else {
            port = 80
        }
    }

    var bracketedHost: String { host.contains(":") ? "[\(host)]" : host }
    var hostHeader: String { port == 80 ? bracketedHost : "\(bracketedHost):\(port)" }
}
