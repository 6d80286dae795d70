/// The object graph of a binary property list, checked before FoundationEssentials decodes it.
///
/// The format refers to objects by index, so a file can hold what no property list is: an array that contains
/// itself (the decoder recurses until the stack overflows), objects shared so often that decoding them copies a
/// billion values, sets (swift-corelibs-foundation crashed on them), or NSKeyedArchiver's UIDs. Such a file is
/// refused here with its reason; one whose trailer or tables cannot be read is refused as damaged.
enum BinaryPropertyListShape {
    /// Arrays and dictionaries inside one another: no Info.plist comes near.
    static let maximumDepth = 256
    /// Values with every shared object counted where it is used: far beyond any configuration.
    static let maximumValues = 100_000

    /// Why the file cannot be decoded as a property list, or nil when it can.
    static func refusal(_ bytes: [UInt8]) -> String? {
        var reader = Reader(bytes: bytes)
        do {
            try reader.readTrailer()
            _ = try reader.values(of: reader.topObject, depth: 1)
            return nil
        } catch {
            return error.reason
        }
    }

    private struct Refusal: Error {
        let reason: String
        static let damaged = Refusal(reason: "a binary property list that cannot be read (cut short or damaged)")
    }

    private struct Reader {
        let bytes: [UInt8]
        var offsetSize = 0
        var referenceSize = 0
        var objectCount = 0
        var topObject = 0
        var tableStart = 0
        /// Values each object stands for, once known; `onPath` marks the objects being counted, to find cycles.
        var counted: [Int: Int] = [:]
        var onPath: Set<Int> = []
        var total = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// The last 32 bytes: 6 unused, the size of an offset, of an object reference, then the object count, the
        /// top object and where the offset table starts, 8 bytes each.
        mutating func readTrailer() throws(Refusal) {
            guard bytes.count >= 8 + 32 else { throw .damaged }
            let trailer = bytes.count - 32
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else { throw .damaged }
            objectCount = try integer(at: trailer + 8, size: 8)
            topObject = try integer(at: trailer + 16, size: 8)
            tableStart = try integer(at: trailer + 24, size: 8)
            // Every object takes a byte at least, and its offset `offsetSize` more.
            guard objectCount <= bytes.count, topObject < objectCount,
                  tableStart <= trailer, objectCount * offsetSize <= trailer - tableStart else { throw .damaged }
        }

        /// How many values `object` stands for, its contents counted; refuses what no property list holds.
        mutating func values(of object: Int, depth: Int) throws(Refusal) -> Int {
            if let known = counted[object] {
                try count(known)
                return known
            }
            guard !onPath.contains(object) else {
                throw Refusal(reason: "a binary property list whose object \(object) contains itself, which no "
                    + "property list does")
            }
            let start = try integer(at: tableStart + object * offsetSize, size: offsetSize)
            guard start >= 8, start < tableStart else { throw .damaged }
            let marker = bytes[start]
            let size: Int
            switch marker >> 4 {
            case 0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7:
                // null, booleans, integers, reals, dates, data and strings: nothing inside.
                try count(1)
                size = 1
            case 0xA, 0xD:
                guard depth <= maximumDepth else {
                    throw Refusal(reason: "a binary property list nested more than \(maximumDepth) deep")
                }
                let dictionary = marker >> 4 == 0xD
                let (length, contents) = try lengthAndContents(marker: marker, at: start)
                let references = dictionary ? 2 * length : length
                guard references <= bytes.count, contents + references * referenceSize <= tableStart else {
                    throw .damaged
                }
                try count(1)
                onPath.insert(object)
                var inside = 1
                for index in 0..<references {
                    let child = try integer(at: contents + index * referenceSize, size: referenceSize)
                    guard child < objectCount else { throw .damaged }
                    if dictionary, index < length, try !isString(child) {
                        throw Refusal(reason: "a binary property list whose dictionary (object \(object)) has a key "
                            + "that is not a string (object \(child))")
                    }
                    // Counted as it is reached, so a shared object costs its size at each use.
                    inside += try values(of: child, depth: depth + 1)
                }
                onPath.remove(object)
                size = inside
            case 0xB, 0xC:
                throw Refusal(reason: "a binary property list holding a set (object \(object)), which is no property "
                    + "list type: TrustKit's configuration has none")
            case 0x8:
                throw Refusal(reason: "a binary property list holding a UID (object \(object)), which NSKeyedArchiver "
                    + "writes and no property list holds")
            default:
                throw .damaged
            }
            counted[object] = size
            return size
        }

        private mutating func count(_ values: Int) throws(Refusal) {
            total += values
            guard total <= maximumValues else {
                throw Refusal(reason: "a binary property list whose shared objects make it more than "
                    + "\(maximumValues) values")
            }
        }

        private func isString(_ object: Int) throws(Refusal) -> Bool {
            let start = try integer(at: tableStart + object * offsetSize, size: offsetSize)
            guard start >= 8, start < tableStart else { throw .damaged }
            return (0x5...0x7).contains(bytes[start] >> 4)
        }

        /// A collection's element count (in its marker, or in the integer after it when the marker says 0xF) and
        /// where its references start.
        private func lengthAndContents(marker: UInt8, at start: Int) throws(Refusal) -> (Int, Int) {
            guard marker & 0x0F == 0x0F else { return (Int(marker & 0x0F), start + 1) }
            guard start + 1 < bytes.count, bytes[start + 1] >> 4 == 0x1 else { throw .damaged }
            let size = 1 << Int(bytes[start + 1] & 0x0F)
            guard size <= 8 else { throw .damaged }
            return (try integer(at: start + 2, size: size), start + 2 + size)
        }

        /// A big-endian unsigned integer of `size` bytes at `start`, within the file and within `Int`.
        private func integer(at start: Int, size: Int) throws(Refusal) -> Int {
            guard start >= 0, size <= bytes.count, start <= bytes.count - size else { throw .damaged }
            var value: UInt64 = 0
            for byte in bytes[start..<start + size] {
                guard value >> 56 == 0 else { throw .damaged }
                value = value << 8 | UInt64(byte)
            }
            guard value <= UInt64(Int.max) else { throw .damaged }
            return Int(value)
        }
    }
}
