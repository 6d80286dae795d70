/// An APK's `resources.arsc` (ResourceTypes.h's `ResTable`), read for what pinning needs: each resource id's type
/// and name (`0x7f0f0001` is `xml/network_security_config`), and the files a file resource stands for in each
/// configuration (`res/xml/network_security_config.xml`). Every offset is checked against its chunk before it is
/// followed; counts are bounded.
public struct ResourceTable: Sendable {
    public struct Resource: Sendable, Equatable {
        public let type: String
        public let name: String
    }

    private var resources: [UInt32: Resource] = [:]
    private var files: [UInt32: [String]] = [:]

    static let maximumEntries = 1 << 20

    /// No resources: an APK without a table resolves no reference.
    public static let empty = ResourceTable()

    /// The type and name of resource `id`.
    public func resource(_ id: UInt32) -> Resource? { resources[id] }

    /// The id of the resource `type/name` (`raw/my_ca`), in the app's package.
    public func id(type: String, name: String) -> UInt32? {
        resources.first { $0.value.type == type && $0.value.name == name }?.key
    }

    /// The distinct files resource `id` stands for across its configurations, in the table's order.
    public func files(of id: UInt32) -> [String] { files[id] ?? [] }

    public static func parse(_ bytes: [UInt8]) throws(ArtifactFormatError) -> ResourceTable {
        let reader = ChunkReader(bytes)
        guard reader.u16(0) == 0x0002, let header = reader.u16(2), let size = reader.u32(4), header >= 12,
              Int(size) <= bytes.count, Int(header) <= Int(size) else {
            throw ArtifactFormatError(offset: 0, reason: "not a resource table (no RES_TABLE_TYPE header)")
        }
        var table = ResourceTable()
        var values = StringPool.empty
        var entries = 0
        var offset = Int(header)
        while offset < Int(size) {
            let (type, chunkHeader, chunkSize) = try chunk(reader, at: offset, within: Int(size))
            switch type {
            case 0x0001: values = try StringPool(reader, at: offset, size: chunkSize)
            case 0x0200:
                try table.readPackage(reader, at: offset, header: chunkHeader, size: chunkSize, values: values,
                                      entries: &entries)
            default: break
            }
            offset += chunkSize
        }
        return table
    }

    /// A chunk's type, header size and size, checked to lie within `end`.
    private static func chunk(_ reader: ChunkReader, at offset: Int, within end: Int) throws(ArtifactFormatError)
        -> (type: UInt16, header: Int, size: Int)
    {
        guard let type = reader.u16(offset), let header = reader.u16(offset + 2), let size = reader.u32(offset + 4),
              header >= 8, size >= UInt32(header), offset + Int(size) <= end else {
            throw ArtifactFormatError(offset: offset, reason: "a chunk whose size runs outside its parent")
        }
        return (type, Int(header), Int(size))
    }

    private mutating func readPackage(_ reader: ChunkReader, at package: Int, header: Int, size: Int,
                                      values: StringPool, entries: inout Int) throws(ArtifactFormatError)
    {
        guard let packageID = reader.u32(package + 8), packageID <= 0xFF, let typeStrings = reader.u32(package + 268),
              let keyStrings = reader.u32(package + 276), header >= 284 else {
            throw ArtifactFormatError(offset: package, reason: "a package header cut short")
        }
        func pool(_ relative: UInt32) throws(ArtifactFormatError) -> StringPool {
            guard Int(relative) < size else {
                throw ArtifactFormatError(offset: package, reason: "a package whose string pool lies outside it")
            }
            let at = package + Int(relative)
            let (type, _, poolSize) = try Self.chunk(reader, at: at, within: package + size)
            guard type == 0x0001 else {
                throw ArtifactFormatError(offset: at, reason: "no string pool where the package says")
            }
            return try StringPool(reader, at: at, size: poolSize)
        }
        let typeNames = try pool(typeStrings)
        let keys = try pool(keyStrings)
        var offset = package + header
        while offset < package + size {
            let (type, typeHeader, typeSize) = try Self.chunk(reader, at: offset, within: package + size)
            defer { offset += typeSize }
            guard type == 0x0201 else { continue }
            guard let typeID = reader.u8(offset + 8), typeID > 0, let flags = reader.u8(offset + 9),
                  let count = reader.u32(offset + 12), let entriesStart = reader.u32(offset + 16),
                  count <= 0xFFFF, typeHeader + Int(count) * 4 <= typeSize, Int(entriesStart) <= typeSize else {
                throw ArtifactFormatError(offset: offset, reason: "a type chunk whose tables run outside it")
            }
            let typeName = try typeNames.string(Int(typeID) - 1, at: offset)
            let sparse = flags & 0x01 != 0
            for slot in 0..<Int(count) {
                guard let word = reader.u32(offset + typeHeader + slot * 4) else { continue }
                let (index, relative): (Int, Int)
                if sparse {
                    (index, relative) = (Int(word & 0xFFFF), Int(word >> 16) * 4)
                } else {
                    guard word != 0xFFFF_FFFF else { continue }
                    (index, relative) = (slot, Int(word))
                }
                let entry = offset + Int(entriesStart) + relative
                // Errors name the type chunk: an entry's own offset may lie past the file.
                guard let first = reader.u16(entry), let entryFlags = reader.u16(entry + 2),
                      let third = reader.u32(entry + 4) else {
                    throw ArtifactFormatError(offset: offset, reason: "an entry outside its type chunk")
                }
                // FLAG_COMPACT (aapt2 of Android 14 on): the key and the value's type and data in 8 bytes.
                let compact = entryFlags & 0x0008 != 0
                let key = compact ? UInt32(first) : third
                let entrySize = compact ? 8 : Int(first)
                guard entry + entrySize <= offset + typeSize else {
                    throw ArtifactFormatError(offset: offset, reason: "an entry outside its type chunk")
                }
                entries += 1
                guard entries <= Self.maximumEntries else {
                    throw ArtifactFormatError(offset: offset, reason: "more than \(Self.maximumEntries) entries")
                }
                let id = packageID << 24 | UInt32(typeID) << 16 | UInt32(index)
                resources[id] = Resource(type: typeName, name: try keys.string(Int(key), at: offset))
                // A simple entry's value: a string (a file resource's path) is kept.
                let value = entry + entrySize
                let string: UInt32?
                if compact {
                    string = entryFlags >> 8 == 0x03 ? third : nil
                } else {
                    string = entryFlags & 0x0001 == 0 && value + 8 <= offset + typeSize && reader.u8(value + 3) == 0x03
                        ? reader.u32(value + 4) : nil
                }
                guard let string else { continue }
                let path = try values.string(Int(string), at: offset)
                if !(files[id]?.contains(path) ?? false) { files[id, default: []].append(path) }
            }
        }
    }
}
