/// HTTP CONNECT (RFC 9110 §9.3.6): asks a proxy for a tunnel to the target, whose name the proxy resolves.
enum ProxyTunnel {
    /// The most a proxy's answer may hold before its blank line.
    static let headerLimit = 16 * 1024

    /// Sends CONNECT for `destination` and reads the proxy's answer up to its blank line; any 2xx opens the tunnel.
    /// Every other outcome is a `.proxy` error naming the proxy, with its status line when it sent one.
    static func open(
        to destination: TargetName, through proxy: ProxyServer, on stream: SocketStream, deadline: Deadline
    ) throws(TLSConnectionError) {
        let request = "CONNECT \(destination) HTTP/1.1\r\nHost: \(destination)\r\nUser-Agent: pinctl\r\n"
            + (proxy.authorization.map { "Proxy-Authorization: \($0)\r\n" } ?? "") + "\r\n"
        let what = "CONNECT \(destination)"
        let head: [UInt8]
        do throws(SocketStream.Failure) {
            try stream.write(Array(request.utf8))
            head = try stream.read(through: Array("\r\n\r\n".utf8), limit: headerLimit)
        } catch {
            throw failure(error, proxy: proxy, what: what, deadline: deadline, partial: stream.pending)
        }
        let statusLine = Array(head.prefix { $0 != 0x0D && $0 != 0x0A })
        guard let status = Self.status(of: statusLine) else {
            throw TLSConnectionError(.proxy, "\(proxy) answered \(what) with something that is not HTTP: "
                + PeerText.quote(head))
        }
        guard !(200...299).contains(status) else { return }
        var message = "\(proxy) refused \(what): \(PeerText.quote(statusLine))"
        if status == 407 {
            message += proxy.hasCredentials
                ? " (the credentials from \(proxy.origin) were not accepted)"
                : " (it wants credentials: \(proxy.origin) http://USER:PASSWORD@\(TargetName(host: proxy.host, port: proxy.port)))"
        }
        throw TLSConnectionError(.proxy, message)
    }

    /// The status code of `HTTP/1.x NNN reason`; nil for anything else.
    static func status(of line: [UInt8]) -> Int? {
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]),
            (100...599).contains(code)
        else { return nil }
        return code
    }

    /// A failed exchange with the proxy in words.
    static func failure(
        _ error: SocketStream.Failure, proxy: ProxyServer, what: String, deadline: Deadline, partial: [UInt8]
    ) -> TLSConnectionError {
        // Whatever came before the failure, if it is not even a status line, is the first thing wrong.
        if !partial.isEmpty, status(of: Array(partial.prefix { $0 != 0x0D && $0 != 0x0A })) == nil,
            partial.contains(0x0A) || partial.count >= 12 {
            return TLSConnectionError(.proxy, "\(proxy) answered \(what) with something that is not HTTP: "
                + PeerText.quote(partial))
        }
        switch error {
        case .timedOut(let received):
            let detail = received == 0 ? "" : ": it sent \(PeerText.quote(partial)), then stalled"
            return TLSConnectionError(.proxy, "no answer from \(proxy) to \(what) within \(deadline.allowance)\(detail)")
        case .closed(let received):
            let detail = received == 0 ? "without answering" : "after sending \(PeerText.quote(partial))"
            return TLSConnectionError(.proxy, "\(proxy) closed the connection \(detail) (\(what))")
        case .tooLong(let limit):
            return TLSConnectionError(.proxy, "\(proxy) answered \(what) with more than \(limit) bytes of headers")
        case .failed(let code):
            return TLSConnectionError(.proxy, "connection to \(proxy) failed during \(what): \(code)")
        }
    }
}
