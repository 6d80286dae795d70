/// Little-endian reads that answer nil outside the bytes.
struct ChunkReader {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func u8(_ offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }

    func u16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func u32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}

extension ChunkReader {
    /// LEB128 of at most 5 bytes (a 32-bit value), moving `at` past it.
    func uleb128(_ at: inout Int) -> Int? {
        var value = 0
        for shift in stride(from: 0, to: 35, by: 7) {
            guard let byte = u8(at) else { return nil }
            at += 1
            value |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value <= Int(UInt32.max) ? value : nil }
        }
        return nil
    }

    func sleb128(_ at: inout Int) -> Int? {
        var value = 0
        var shift = 0
        for _ in 0..<5 {
            guard let byte = u8(at) else { return nil }
            at += 1
            value |= Int(byte & 0x7F) << shift
            shift += 7
            if byte & 0x80 == 0 {
                if byte & 0x40 != 0, shift < 64 { value |= -1 << shift }
                return Int(Int32(truncatingIfNeeded: value))
            }
        }
        return nil
    }
}
