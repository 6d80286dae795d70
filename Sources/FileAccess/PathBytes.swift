import Glibc

/// File names as the kernel holds them: bytes, not always UTF-8, carried losslessly in a `String`.
///
/// Swift decodes `argv` and directory entries as UTF-8 and replaces what is not, so `bad\xFF.pem` would become
/// `bad\u{FFFD}.pem`, a different file. Here every byte that is not part of valid UTF-8 becomes one scalar of the
/// otherwise unused range U+10FF80...U+10FFFF (U+10FF00 + byte), and back again at every system call. The range
/// itself, should a real name use it, is escaped byte by byte too, so the mapping is lossless both ways.
public enum PathBytes {
    static let escapeBase: UInt32 = 0x10_FF00
    static let escapedRange: ClosedRange<UInt32> = 0x10_FF80...0x10_FFFF

    /// The string that stands for `bytes`.
    public static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String where Bytes.Index == Int {
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if let (scalar, length) = decodeScalar(bytes, at: index), !escapedRange.contains(scalar.value) {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[index]))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `string` stands for: the inverse of `string(_:)`.
    public static func bytes(_ string: String) -> [UInt8] {
        // An escaped scalar (U+10FF80...U+10FFFF) is the only one whose UTF-8 starts with F4 8F: a name without it is
        // its UTF-8 as it is, and every system call on a path comes here (368 root files when every platform's
        // snapshot without an index is read).
        guard string.utf8.contains(0xF4) else { return Array(string.utf8) }
        var result: [UInt8] = []
        result.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            if let byte = escapedByte(scalar) {
                result.append(byte)
            } else {
                result.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return result
    }

    /// The raw byte a scalar of the escape range stands for; nil for every other scalar.
    public static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        escapedRange.contains(scalar.value) ? UInt8(scalar.value - escapeBase) : nil
    }

    /// Calls `body` with the NUL-terminated bytes of `path`; nil when the path holds a NUL byte no system call can
    /// take (only possible for a name read from a file, never from the command line).
    public static func withCString<T>(_ path: String, _ body: (UnsafePointer<CChar>) -> T) -> T? {
        var raw = bytes(path)
        guard !raw.contains(0) else { return nil }
        raw.append(0)
        return raw.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// The process's arguments, program name first, with every byte kept.
    public static func arguments() -> [String] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return string(UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self),
                                              count: strlen(argument)))
        }
    }

    /// The running executable's own path, symbolic links resolved (/proc/self/exe: the binary itself, whatever
    /// argv[0] or a link to it says); nil when the kernel does not tell.
    public static func runningExecutable() -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return string(buffer[..<length])
    }

    /// An environment variable with every byte kept; nil when unset.
    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return string(UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self),
                                          count: strlen(value)))
    }

    /// One well-formed UTF-8 sequence at `index` (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
    private static func decodeScalar<Bytes: Collection<UInt8>>(_ bytes: Bytes, at index: Int)
        -> (Unicode.Scalar, Int)? where Bytes.Index == Int
    {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var value: UInt32
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0: length = 3; value = UInt32(lead & 0x0F); secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xED: length = 3; value = UInt32(lead & 0x0F); secondRange = 0x80...0x9F
        case 0xF0: length = 4; value = UInt32(lead & 0x07); secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4; value = UInt32(lead & 0x07)
        case 0xF4: length = 4; value = UInt32(lead & 0x07); secondRange = 0x80...0x8F
        default: return nil
        }
        guard bytes.endIndex - index >= length else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard (offset == 1 ? secondRange : 0x80...0xBF).contains(byte) else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
