import Glibc
import TextSyntax

/// A file or standard input read one line at a time, as the lines are needed: a list of any length, or one still
/// being written into a pipe, costs a buffer, not its size.
// @unchecked Sendable: one reader at a time (the caller serialises `next()`); `fd` is immutable.
public final class LineInput: @unchecked Sendable {
    /// Lines longer than this are refused: no line of a list of targets comes close.
    public static let maximumLineLength = 64 * 1024

    public struct Line: Sendable {
        /// From 1.
        public let number: Int
        public let text: String
    }

    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private var start = 0
    private var lineNumber = 0
    private var atEnd = false

    /// Opens `path` for reading; named pipes and devices are read as streams, a directory is refused.
    public init(path: String) throws(FileInput.Failure) {
        guard let fd = PathBytes.withCString(path, { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY) }) else {
            throw FileInput.Failure(reason: FileSystemError.nulByte.reason)
        }
        guard fd >= 0 else {
            let code = errno
            throw FileInput.Failure(reason: code == ENOENT
                ? "no such file" : "cannot be read: \(FileSystemError(errno: code).reason)")
        }
        var info = stat()
        if fstat(fd, &info) == 0, FileKind(mode: info.st_mode) == .directory {
            close(fd)
            throw FileInput.Failure(reason: "is a directory, not a file")
        }
        self.fd = fd
        ownsDescriptor = true
    }

    /// Standard input, read as it arrives.
    public init(standardInput: Void = ()) {
        fd = STDIN_FILENO
        ownsDescriptor = false
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// The next line without its line ending (LF or CRLF); nil at the end of the input. A last line without a
    /// newline is still a line.
    public func next() throws(FileInput.Failure) -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                return try line(upTo: newline, skipping: 1)
            }
            guard buffer.count - start <= Self.maximumLineLength else {
                throw FileInput.Failure(reason: "line \(lineNumber + 1) is longer than \(Self.maximumLineLength) bytes")
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                return try line(upTo: buffer.count, skipping: 0)
            }
            try fill()
        }
    }

    /// A NUL byte ends the input: what holds one is not a list of lines (`/proc/self/environ`), and nothing of it
    /// is quoted.
    private func line(upTo end: Int, skipping: Int) throws(FileInput.Failure) -> Line {
        guard !buffer[start..<end].contains(0) else {
            throw FileInput.Failure(reason: "line \(lineNumber + 1) \(UntrustedText.nulByteReason)")
        }
        var last = end
        if last > start, buffer[last - 1] == UInt8(ascii: "\r") { last -= 1 }
        let text = String(decoding: buffer[start..<last], as: UTF8.self)
        start = end + skipping
        lineNumber += 1
        return Line(number: lineNumber, text: text)
    }

    private func fill() throws(FileInput.Failure) {
        // Drop what has been handed out before reading more, so the buffer holds one line and one read at most.
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let chunk = 64 * 1024
        let old = buffer.count
        buffer += repeatElement(0, count: chunk)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + old, chunk) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                let code = errno
                buffer.removeLast(chunk)
                throw FileInput.Failure(reason: "cannot be read: \(FileSystemError(errno: code).reason)")
            }
            buffer.removeLast(chunk - count)
            if count == 0 { atEnd = true }
            return
        }
    }
}
