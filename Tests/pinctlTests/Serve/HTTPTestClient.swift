import Foundation
import Glibc

/// One HTTP/1.1 exchange with the exporter over a loopback socket: the test's side of the wire, so that a request
/// can be as odd as a test needs (a body, a huge target) and nothing stands between the test and the server.
struct HTTPTestClient {
    struct Answer: CustomStringConvertible {
        let status: Int
        /// Header names in lower case.
        let headers: [String: String]
        let body: String

        var description: String { "HTTP \(status) \(headers)\n\(body)" }

        /// The value of a metric line `NAME{LABELS} VALUE` (labels written as the exporter orders them), or nil.
        func metric(_ name: String, _ labels: [(String, String)] = []) -> Double? {
            let rendered = labels.map { "\($0.0)=\"\($0.1)\"" }.joined(separator: ",")
            let key = labels.isEmpty ? name : name + "{" + rendered + "}"
            for line in body.split(separator: "\n") where line.hasPrefix(key + " ") {
                return Double(line.dropFirst(key.count + 1))
            }
            return nil
        }

        /// Every sample line of a metric, whatever its labels.
        func samples(_ name: String) -> [String] {
            body.split(separator: "\n").map(String.init).filter { $0.hasPrefix(name + "{") || $0.hasPrefix(name + " ") }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: UInt16

    /// Sends `request` as is and reads the answer to the end of the connection, within `seconds`.
    func exchange(_ request: [UInt8], seconds: Double = 30) throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            throw Failure(description: "connect to port \(port): \(String(cString: strerror(errno)))")
        }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer and close before it has read everything (a 414, a 413): read what it said.
            guard count > 0 else { break }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                break
            }
        }
        return try Self.parse(received)
    }

    /// GET `target` (path and query) with `Connection: close` and any extra header lines.
    func get(_ target: String, headers: [String] = [], seconds: Double = 30) throws -> Answer {
        let lines = ["GET \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + headers
        return try exchange(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8), seconds: seconds)
    }

    /// POST `body` to `target` with `Connection: close`, as JSON, with its length or (`chunked`) in one chunk.
    func post(_ target: String, body: [UInt8], chunked: Bool = false, seconds: Double = 30) throws -> Answer {
        let lines = ["POST \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close",
                     "Content-Type: application/json",
                     chunked ? "Transfer-Encoding: chunked" : "Content-Length: \(body.count)"]
        let head = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        let framed = chunked
            ? Array((String(body.count, radix: 16) + "\r\n").utf8) + body + Array("\r\n0\r\n\r\n".utf8) : body
        return try exchange(head + framed, seconds: seconds)
    }

    /// GET /probe for a target, with the query parameters given.
    func probe(_ target: String, _ parameters: [(String, String)] = [], headers: [String] = [], seconds: Double = 30)
        throws -> Answer
    {
        let query = ([("target", target)] + parameters).map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
        return try get("/probe?" + query, headers: headers, seconds: seconds)
    }

    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }

    private static func parse(_ bytes: [UInt8]) throws -> Answer {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else {
            throw Failure(description: "no complete HTTP answer in \(bytes.count) bytes: \(text.prefix(200))")
        }
        let head = text[..<end.lowerBound].components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw Failure(description: "not an HTTP status line: \(head[0])")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
        }
        return Answer(status: status, headers: headers, body: String(text[end.upperBound...]))
    }
}
