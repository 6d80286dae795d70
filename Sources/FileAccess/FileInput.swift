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
        return try readAll(fd, limit: limit, size: Int(info.st_size))
    }

    /// Standard input, read to its end (`--chain -`); blocking, as any filter's input is.
    public static func readStandardInput() throws(Failure) -> [UInt8] {
        try readAll(STDIN_FILENO, limit: maximumSize, size: 64 * 1024)
    }

    private static func tooLarge(_ limit: Int) -> Failure { Failure(reason: "larger than \(limit >> 20) MiB") }

    /// Everything `fd` gives until its end; more than `limit` bytes is an error. `size`, what fstat said, sizes the
    /// first buffer: one byte more than it, so a file that has not grown is read by one call and its end seen by the
    /// next, into the array returned, nothing zeroed first. (It was a zeroed 64 KiB buffer copied into a growing
    /// array: for each 2 kB root of a store snapshot, of which a run over every version reads 368, and in 64 KiB
    /// steps for an app's archive of hundreds of MB.) A file that grows, or one whose size says nothing (standard
    /// input, /proc), is read on in buffers as large as what it has given so far.
    private static func readAll(_ fd: Int32, limit: Int, size: Int = 0) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        let most = limit < Int.max ? limit + 1 : limit
        var room = min(max(size, 0), limit) + 1
        while true {
            var ended = false
            var failure: Int32 = 0
            let chunk = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
                guard let start = buffer.baseAddress else { return }
                while count < buffer.count {
                    let read = Glibc.read(fd, start + count, buffer.count - count)
                    if read == 0 {
                        ended = true
                        return
                    }
                    if read < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    count += read
                }
            }
            if failure != 0 { throw Failure(reason: "cannot be read: \(FileSystemError(errno: failure).reason)") }
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            // Never more than one byte past the limit is read: that byte says the file is too large.
            guard bytes.count <= limit else { throw tooLarge(limit) }
            if ended { return bytes }
            room = min(max(bytes.count, 64 * 1024), most - bytes.count)
        }
    }
}
