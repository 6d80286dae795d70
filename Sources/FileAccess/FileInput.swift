import Glibc

/// A file read whole, with a reason a person can act on when it cannot be.
///
/// Files are opened non-blocking and refused unless regular: a named pipe given as `--chain` (or lying in a pins
/// directory) would otherwise block pinctl forever, and a device would be read without end.
public enum FileInput {
    /// Files larger than this are refused: no certificate, pin or configuration file comes close.
    public static let maximumSize = 16 << 20

    public struct Failure: Error, Sendable {
        public let reason: String
    }

    /// The file at `path`, refused when larger than `limit` bytes (a build's archive may be far larger than a
    /// configuration file).
    public static func read(_ path: String, limit: Int = maximumSize) throws(Failure) -> [UInt8] {
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        guard let fd = PathBytes.withCString(path, { open($0, flags) }) else {
            throw Failure(reason: FileSystemError.nulByte.reason)
        }
        guard fd >= 0 else {
            let code = errno
            throw Failure(reason: code == ENOENT ? "no such file" : "cannot be read: \(FileSystemError(errno: code).reason)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(reason: FileSystemError(errno: errno).reason) }
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regular else {
            throw Failure(reason: kind == .directory
                ? "is a directory, not a file" : "is \(kind.name), not a regular file")
        }
        guard info.st_size <= limit else { throw tooLarge(limit) }
        return try readAll(fd, limit: limit)
    }

    /// Standard input, read to its end (`--chain -`); blocking, as any filter's input is.
    public static func readStandardInput() throws(Failure) -> [UInt8] {
        try readAll(STDIN_FILENO, limit: maximumSize)
    }

    private static func tooLarge(_ limit: Int) -> Failure { Failure(reason: "larger than \(limit >> 20) MiB") }

    private static func readAll(_ fd: Int32, limit: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: "cannot be read: \(FileSystemError(errno: errno).reason)")
            }
            bytes += chunk[..<count]
            guard bytes.count <= limit else { throw tooLarge(limit) }
        }
    }
}
