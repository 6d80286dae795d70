/// Finds set objects in a binary property list before Foundation reads it.
///
/// The binary format can hold a set (marker `0xC_`), though no property list type is one and nothing writes one into
/// an Info.plist. swift-corelibs-foundation's `PropertyListSerialization` crashes on it (a segmentation fault while
/// bridging the `NSSet` to Swift), so such a file must be refused before it gets there.
enum BinaryPropertyListSets {
    /// The index of the first object in the offset table that is a set, or nil when there is none or the trailer and
    /// table cannot be read (Foundation then refuses the file itself). Reads only within `bytes`, whatever they hold.
    static func firstSet(in bytes: [UInt8]) -> Int? {
        // The trailer is the last 32 bytes: 6 unused and sort-version bytes, the size of an offset, the size of an
        // object reference, then the object count, the top object and the offset table's start, 8 bytes each.
        guard bytes.count >= 32 else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        guard (1...8).contains(offsetSize), let count = integer(bytes, at: trailer + 8, size: 8),
              let table = integer(bytes, at: trailer + 24, size: 8), table <= bytes.count else { return nil }
        // Every offset the table holds within the file, wherever it points: CoreFoundation reads objects by them.
        let readable = min(count, (bytes.count - table) / offsetSize)
        for index in 0..<readable {
            guard let offset = integer(bytes, at: table + index * offsetSize, size: offsetSize),
                  offset < bytes.count else { continue }
            if bytes[offset] >> 4 == 0xC { return index }
        }
        return nil
    }

    /// A big-endian unsigned integer of `size` bytes at `start`, if it fits in an `Int`.
    private static func integer(_ bytes: [UInt8], at start: Int, size: Int) -> Int? {
        var value: UInt64 = 0
        for byte in bytes[start..<start + size] {
            guard value >> 56 == 0 else { return nil }
            value = value << 8 | UInt64(byte)
        }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}
