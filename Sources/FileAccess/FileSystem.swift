import Glibc

/// What a path names, as stat(2) sees it.
public enum FileKind: Sendable {
    case regular, directory, fifo, socket, characterDevice, blockDevice, symbolicLink, other

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// "a named pipe (FIFO)": what a message calls it.
    public var name: String {
        switch self {
        case .regular: "a file"
        case .directory: "a directory"
        case .fifo: "a named pipe (FIFO)"
        case .socket: "a socket"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .symbolicLink: "a symbolic link"
        case .other: "not a regular file"
        }
    }
}

/// Why a file-system call failed, in words (never Foundation's "NSCocoaErrorDomain error 512").
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    public let reason: String

    public init(reason: String) { self.reason = reason }

    /// errno in words: "no such file or directory", "permission denied", …
    init(errno code: Int32) { reason = Self.words(for: code) }

    public var description: String { reason }

    static func words(for code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or directory"
        case EACCES, EPERM: "permission denied"
        case ELOOP: "too many levels of symbolic links (a symbolic link loop?)"
        case ENOTDIR: "a component of the path is not a directory"
        case ENAMETOOLONG: "the file name is too long"
        case EISDIR: "is a directory"
        case ENOSPC: "no space left on the device"
        case EROFS: "read-only file system"
        case EEXIST: "already exists"
        default:
            String(cString: strerror(code)).lowercased()
        }
    }

    static let nulByte = FileSystemError(reason: "the file name contains a NUL byte")
}

/// The file-system calls pinctl makes, on paths kept as bytes (`PathBytes`), with errors in words.
public enum FileSystem {
    /// What `path` names, following symbolic links; nil when nothing is there (or a dangling link).
    public static func kind(of path: String) throws(FileSystemError) -> FileKind? {
        try status(path, follow: true)
    }

    /// What `path` itself is, without following a final symbolic link; nil when nothing is there.
    public static func linkKind(of path: String) throws(FileSystemError) -> FileKind? {
        try status(path, follow: false)
    }

    private static func status(_ path: String, follow: Bool) throws(FileSystemError) -> FileKind? {
        var info = stat()
        guard let result = PathBytes.withCString(path, { follow ? stat($0, &info) : lstat($0, &info) }) else {
            throw .nulByte
        }
        if result == 0 { return FileKind(mode: info.st_mode) }
        let code = errno
        if code == ENOENT { return nil }
        throw FileSystemError(errno: code)
    }

    /// The names in a directory (not "." and ".."), in byte order.
    public static func entries(ofDirectory path: String) throws(FileSystemError) -> [String] {
        guard let directory = PathBytes.withCString(path, { opendir($0) }) else { throw .nulByte }
        guard let directory else { throw FileSystemError(errno: errno) }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw FileSystemError(errno: errno) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }.map { PathBytes.string($0) }
    }

    /// Creates `path` and, when `intermediates`, its missing parents; an existing directory is not an error.
    public static func makeDirectory(_ path: String, intermediates: Bool) throws(FileSystemError) {
        if intermediates {
            let parent = Path.parent(of: path)
            if parent != path, try kind(of: parent) == nil { try makeDirectory(parent, intermediates: true) }
        }
        guard let result = PathBytes.withCString(path, { mkdir($0, 0o777) }) else { throw .nulByte }
        if result == 0 { return }
        let code = errno
        if code == EEXIST, try kind(of: path) == .directory { return }
        throw FileSystemError(errno: code)
    }

    /// A new empty directory `parent/prefixXXXXXX`, on the same file system as `parent`.
    public static func makeTemporaryDirectory(in parent: String, prefix: String) throws(FileSystemError) -> String {
        var template = PathBytes.bytes(Path.join(parent, prefix + "XXXXXX"))
        guard !template.contains(0) else { throw .nulByte }
        template.append(0)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { mkdtemp($0.baseAddress!) != nil }
        }
        guard made else { throw FileSystemError(errno: errno) }
        return PathBytes.string(template.dropLast())
    }

    /// Gives a directory the mode `mkdir` gives a new one: 0777 less the process's umask.
    public static func setDefaultDirectoryMode(_ path: String) throws(FileSystemError) {
        let mask = umask(0)
        umask(mask)
        guard let result = PathBytes.withCString(path, { chmod($0, 0o777 & ~mask) }) else { throw .nulByte }
        guard result == 0 else { throw FileSystemError(errno: errno) }
    }

    /// Writes a new file (it must not exist), `mode` (default 0666) less the umask. The mode is the file's from its
    /// creation on, so a private file (0600) is never readable by others, not even before it is written.
    public static func writeNewFile(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o666) throws(FileSystemError) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        guard let fd = PathBytes.withCString(path, { open($0, flags, mode) }) else { throw .nulByte }
        guard fd >= 0 else { throw FileSystemError(errno: errno) }
        defer { close(fd) }
        try writeAll(bytes, to: fd)
    }

    /// Appends to the file at `path`, made (0666 less the umask) when it is not there: nothing it holds is lost.
    public static func append(_ bytes: [UInt8], to path: String) throws(FileSystemError) {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC
        guard let fd = PathBytes.withCString(path, { open($0, flags, 0o666) }) else { throw .nulByte }
        guard fd >= 0 else { throw FileSystemError(errno: errno) }
        defer { close(fd) }
        try writeAll(bytes, to: fd)
    }

    /// Writes every byte to an open descriptor, again where a write is interrupted or takes only part.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(FileSystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(errno: errno)
            }
            offset += written
        }
    }

    /// A second name for the file at `source` (a hard link), on the same file system.
    public static func link(_ source: String, to destination: String) throws(FileSystemError) {
        try twoPaths(source, destination) { Glibc.link($0, $1) }
    }

    /// rename(2): atomic within one file system; replaces a file at `destination`.
    public static func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try twoPaths(source, destination) { Glibc.rename($0, $1) }
    }

    /// Exchanges two directories (or files) in one step, `renameat2(RENAME_EXCHANGE)`: a reader sees one or the
    /// other, never neither. Fails where the file system cannot (EINVAL), across file systems (EXDEV).
    public static func exchange(_ first: String, _ second: String) throws(FileSystemError) {
        // Looked up at run time: Swift's Glibc module declares neither renameat2 (glibc does only under _GNU_SOURCE)
        // nor RENAME_EXCHANGE (2, linux/fs.h); a C library without it (glibc before 2.28) fails as a kernel would.
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let library = dlopen(nil, RTLD_NOW) else { throw FileSystemError(errno: ENOSYS) }
        defer { dlclose(library) }
        guard let symbol = dlsym(library, "renameat2") else { throw FileSystemError(errno: ENOSYS) }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let exchange: UInt32 = 1 << 1
        try twoPaths(first, second) { renameat2(AT_FDCWD, $0, AT_FDCWD, $1, exchange) }
    }

    /// The permission bits of `path` (following a symbolic link).
    public static func permissions(of path: String) throws(FileSystemError) -> mode_t {
        var info = stat()
        guard let result = PathBytes.withCString(path, { stat($0, &info) }) else { throw .nulByte }
        guard result == 0 else { throw FileSystemError(errno: errno) }
        return info.st_mode & 0o7777
    }

    /// chmod(2).
    public static func setPermissions(_ path: String, _ mode: mode_t) throws(FileSystemError) {
        guard let result = PathBytes.withCString(path, { chmod($0, mode) }) else { throw .nulByte }
        guard result == 0 else { throw FileSystemError(errno: errno) }
    }

    /// Whether two paths name the same file (device and inode), following symbolic links; false when either is
    /// missing.
    public static func sameFile(_ first: String, _ second: String) -> Bool {
        var one = stat()
        var two = stat()
        guard PathBytes.withCString(first, { stat($0, &one) }) == 0,
              PathBytes.withCString(second, { stat($0, &two) }) == 0
        else { return false }
        return one.st_dev == two.st_dev && one.st_ino == two.st_ino
    }

    private static func twoPaths(
        _ first: String, _ second: String, _ call: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32
    ) throws(FileSystemError) {
        let result = PathBytes.withCString(first) { from in PathBytes.withCString(second) { to in call(from, to) } }
        guard let inner = result, let value = inner else { throw .nulByte }
        guard value == 0 else { throw FileSystemError(errno: errno) }
    }

    /// Removes a file, or an empty directory; best effort, for cleaning up after ourselves.
    public static func remove(_ path: String) {
        _ = PathBytes.withCString(path) { name in unlink(name) == 0 ? 0 : rmdir(name) }
    }

    /// Removes a directory pinctl made and the files it put there (one level deep); best effort.
    public static func removeDirectory(_ path: String) {
        if let names = try? entries(ofDirectory: path) {
            for name in names { remove(Path.join(path, name)) }
        }
        remove(path)
    }
}

/// Path arithmetic on strings, byte-safe because '/' is never part of a multi-byte sequence.
public enum Path {
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The directory holding `path`: "." for a bare name, "/" for a top-level entry.
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// The last component of `path`, without trailing slashes.
    public static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The extension of the last component, lower-cased, without the dot; "" when there is none.
    public static func lowercasedExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
