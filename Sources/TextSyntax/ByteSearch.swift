import Glibc

/// A byte searched for with memchr: a loop costs about a nanosecond a byte, and the readers of snapshot files search
/// whole files (every platform's membership files are 430 kB).
public enum ByteSearch {
    /// Where the first `byte` at or after `start` is in `buffer`; nil when there is none.
    public static func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress,
              let found = memchr(base + start, Int32(byte), buffer.count - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// Where the first `byte` at or after `start` is in `bytes`; nil when there is none.
    public static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int = 0) -> Int? {
        bytes.withUnsafeBufferPointer { firstIndex(of: byte, in: $0, from: start) }
    }
}
