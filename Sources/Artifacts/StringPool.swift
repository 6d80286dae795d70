/// A `ResStringPool` of binary XML and of `resources.arsc`: strings by index, UTF-8 or UTF-16, each decoded when
/// asked for, never read outside its chunk.
struct StringPool {
    static let empty = StringPool(reader: ChunkReader([]), offsets: [], end: 0, utf8: true)

    private let reader: ChunkReader
    /// Where each string starts, in the file.
    private let offsets: [Int]
    private let end: Int
    private let utf8: Bool

    private init(reader: ChunkReader, offsets: [Int], end: Int, utf8: Bool) {
        self.reader = reader
        self.offsets = offsets
        self.end = end
        self.utf8 = utf8
    }

    init(_ reader: ChunkReader, at chunk: Int, size: Int) throws(ArtifactFormatError) {
        guard let header = reader.u16(chunk + 2), let count = reader.u32(chunk + 8), let flags = reader.u32(chunk + 16),
              let start = reader.u32(chunk + 20), Int(count) <= size / 4,
              Int(header) + Int(count) * 4 <= size, Int(start) <= size else {
            throw ArtifactFormatError(offset: chunk, reason: "a string pool whose tables run outside it")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            guard let relative = reader.u32(chunk + Int(header) + index * 4),
                  Int(start) + Int(relative) < size else {
                throw ArtifactFormatError(offset: chunk, reason: "string \(index) lies outside its pool")
            }
            offsets.append(chunk + Int(start) + Int(relative))
        }
        self.init(reader: reader, offsets: offsets, end: chunk + size, utf8: flags & 0x100 != 0)
    }

    /// String `index`; `place` is the offset of what refers to it, for the error.
    func string(_ index: Int, at place: Int) throws(ArtifactFormatError) -> String {
        guard index >= 0, index < offsets.count else {
            throw ArtifactFormatError(offset: place, reason: "string \(index) of a pool of \(offsets.count)")
        }
        var at = offsets[index]
        if utf8 {
            // Its length in UTF-16 units, then in bytes, each one byte or two (high bit set).
            func length() -> Int? {
                guard let first = reader.u8(at) else { return nil }
                at += 1
                guard first & 0x80 != 0 else { return Int(first) }
                guard let second = reader.u8(at) else { return nil }
                at += 1
                return Int(first & 0x7F) << 8 | Int(second)
            }
            guard length() != nil, let count = length(), at + count <= end else {
                throw ArtifactFormatError(offset: offsets[index], reason: "string \(index) runs outside its pool")
            }
            return String(decoding: reader.bytes[at..<at + count], as: UTF8.self)
        }
        guard let first = reader.u16(at) else {
            throw ArtifactFormatError(offset: offsets[index], reason: "string \(index) runs outside its pool")
        }
        at += 2
        var count = Int(first)
        if first & 0x8000 != 0 {
            guard let second = reader.u16(at) else {
                throw ArtifactFormatError(offset: offsets[index], reason: "string \(index) runs outside its pool")
            }
            at += 2
            count = Int(first & 0x7FFF) << 16 | Int(second)
        }
        guard count <= (end - at) / 2 else {
            throw ArtifactFormatError(offset: offsets[index], reason: "string \(index) runs outside its pool")
        }
        let units = (0..<count).map { UInt16(reader.bytes[at + 2 * $0]) | UInt16(reader.bytes[at + 2 * $0 + 1]) << 8 }
        return String(decoding: units, as: UTF16.self)
    }
}
