import Glibc

/// Reading and writing a plain-text or binary exchange on a connected socket before TLS (a proxy's CONNECT, a
/// STARTTLS dialogue, an HTTP fetch), every wait bounded by the operation's deadline and every read by a size limit.
///
/// Reads are buffered: what the peer sent past the end of one answer stays in `pending` for the next read, so a
/// greeting that arrives in the same segment as a proxy's answer is not lost, and bytes a peer sent before the TLS
/// handshake can be noticed.
package final class SocketStream {
    /// Why a read or write did not complete.
    package enum Failure: Error {
        /// The deadline passed; `received` bytes had come in for the answer being read.
        case timedOut(received: Int)
        /// The peer closed its side; `received` bytes had come in for the answer being read.
        case closed(received: Int)
        /// More than the limit came in without the end of the answer.
        case tooLong(limit: Int)
        case failed(Errno)
    }

    package let connection: TCPConnection
    private let deadline: Deadline
    /// Received, not yet handed out.
    package private(set) var pending: [UInt8] = []

    package init(_ connection: TCPConnection, deadline: Deadline) {
        self.connection = connection
        self.deadline = deadline
    }

    /// Sends every byte, waiting for room in the socket as needed.
    package func write(_ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                send(connection.fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count >= 0 {
                offset += count
                continue
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else { throw .failed(Errno(code)) }
            try wait(for: Int32(POLLOUT), received: 0)
        }
    }

    /// Bytes up to and including the first `delimiter`, at most `limit` bytes in all.
    package func read(through delimiter: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var searchFrom = 0
        while true {
            if let end = Self.firstIndex(of: delimiter, in: pending, from: searchFrom) {
                guard end + delimiter.count <= limit else { throw .tooLong(limit: limit) }
                return take(end + delimiter.count)
            }
            guard pending.count < limit else { throw .tooLong(limit: limit) }
            // The delimiter may straddle what is buffered and what comes next.
            searchFrom = max(0, pending.count - delimiter.count + 1)
            try fill()
        }
    }

    /// One line without its CR LF (or bare LF), at most `limit` bytes.
    package func readLine(limit: Int) throws(Failure) -> [UInt8] {
        var line = try read(through: [0x0A], limit: limit)
        line.removeLast()
        if line.last == 0x0D { line.removeLast() }
        return line
    }

    /// Exactly `count` bytes.
    package func read(count: Int) throws(Failure) -> [UInt8] {
        while pending.count < count { try fill() }
        return take(count)
    }

    /// Waits until something more than `pending` has arrived, or the peer closed: true when it did not close.
    package func waitForMore() throws(Failure) -> Bool {
        do {
            try fill()
            return true
        } catch .closed {
            return false
        }
    }

    private func take(_ count: Int) -> [UInt8] {
        let taken = Array(pending.prefix(count))
        pending.removeFirst(count)
        return taken
    }

    /// Receives at least one more byte into `pending`.
    private func fill() throws(Failure) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending += buffer.prefix(count)
                return
            }
            if count == 0 { throw .closed(received: pending.count) }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else { throw .failed(Errno(code)) }
            try wait(for: Int32(POLLIN), received: pending.count)
        }
    }

    private func wait(for events: Int32, received: Int) throws(Failure) {
        switch SocketWait.wait(connection.fd, for: events, until: deadline) {
        case .ready: return
        case .timedOut: throw .timedOut(received: received)
        case .failed(let code): throw .failed(Errno(code))
        }
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else {
            return nil
        }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}

/// Quoting what a peer said in an error message: its first line as text, shortened, or its first bytes in hex.
package enum PeerText {
    /// "'HTTP/1.1 407 Proxy Authentication Required'", at most `limit` characters of the first line; bytes that are
    /// not printable ASCII are left to the renderer, which escapes them.
    package static func quote(_ bytes: [UInt8], limit: Int = 160) -> String {
        let line = bytes.prefix { $0 != 0x0D && $0 != 0x0A }
        // Text is quoted; control characters or bytes that are not UTF-8 mean it is not text.
        let isText = line.allSatisfy { $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }
            && String(validating: line, as: UTF8.self) != nil
        guard !line.isEmpty, isText else {
            return bytes.isEmpty ? "nothing" : "bytes " + hex(bytes)
        }
        let text = String(decoding: line.prefix(limit), as: UTF8.self)
        return "'" + text + (line.count > limit ? "…" : "") + "'"
    }

    /// The first 8 bytes in hex: "16 03 01 00 …".
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = bytes.prefix(8).map { byte -> String in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return digits.joined(separator: " ") + (bytes.count > 8 ? " …" : "")
    }
}
