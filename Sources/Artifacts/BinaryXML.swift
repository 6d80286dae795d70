/// Android's binary XML (AAPT's compiled form of `AndroidManifest.xml` and `res/xml/*`: ResourceTypes.h's
/// `ResXMLTree`), read into a tree of elements whose attribute values keep their type: a string, a resource reference
/// (an id `ResourceTable` resolves), a boolean, a number. A documented format with no library for Swift, so read
/// here, every size and index checked against the file before it is followed, and bounded in nodes and depth.
public struct BinaryXMLElement: Sendable {
    public struct Attribute: Sendable {
        /// The namespace URI (`http://schemas.android.com/apk/res/android`), empty for none.
        public let namespace: String
        public let name: String
        /// The framework attribute id the resource map gives the name (`android:debuggable` is 0x0101000f), when
        /// one does: R8 may shorten names, never ids.
        public let resourceID: UInt32?
        public let value: Value
    }

    public enum Value: Sendable, Equatable {
        case string(String)
        case reference(UInt32)
        case boolean(Bool)
        case integer(Int64)
        /// Another type (a dimension, a color, …): the type byte and its raw data.
        case other(type: UInt8, data: UInt32)
    }

    public let name: String
    public let attributes: [Attribute]
    public let children: [BinaryXMLElement]
    /// The text directly inside the element, concatenated.
    public let text: String
    /// The line of the source file aapt compiled, as it recorded it.
    public let line: Int

    /// The attribute of `id` (a framework attribute), else the one named `name` in `namespace`.
    public func attribute(id: UInt32? = nil, namespace: String = "", _ name: String) -> Attribute? {
        if let id, let found = attributes.first(where: { $0.resourceID == id }) { return found }
        return attributes.first { $0.namespace == namespace && $0.name == name }
    }
}

public enum BinaryXML {
    public static let androidNamespace = "http://schemas.android.com/apk/res/android"
    static let maximumNodes = 100_000
    static let maximumDepth = 64

    /// The document's root element.
    public static func parse(_ bytes: [UInt8]) throws(ArtifactFormatError) -> BinaryXMLElement {
        let reader = ChunkReader(bytes)
        guard let type = reader.u16(0), type == 0x0003, let headerSize = reader.u16(2), let size = reader.u32(4),
              headerSize >= 8, Int(size) <= bytes.count, Int(headerSize) <= Int(size) else {
            throw ArtifactFormatError(offset: 0, reason: "not Android binary XML (no RES_XML_TYPE header)")
        }
        var strings = StringPool.empty
        var resourceIDs: [UInt32] = []
        var stack: [(name: String, attributes: [BinaryXMLElement.Attribute], children: [BinaryXMLElement],
                     text: String, line: Int)] = []
        var root: BinaryXMLElement?
        var nodes = 0
        var offset = Int(headerSize)
        let end = Int(size)
        while offset < end {
            guard let chunkType = reader.u16(offset), let chunkHeader = reader.u16(offset + 2),
                  let chunkSize = reader.u32(offset + 4), chunkHeader >= 8, chunkSize >= UInt32(chunkHeader),
                  offset + Int(chunkSize) <= end else {
                throw ArtifactFormatError(offset: offset, reason: "a chunk whose size runs outside the document")
            }
            let chunk = offset
            offset += Int(chunkSize)
            nodes += 1
            guard nodes <= maximumNodes else {
                throw ArtifactFormatError(offset: chunk, reason: "more than \(maximumNodes) chunks")
            }
            switch chunkType {
            case 0x0001:
                strings = try StringPool(reader, at: chunk, size: Int(chunkSize))
            case 0x0180:
                let count = (Int(chunkSize) - Int(chunkHeader)) / 4
                resourceIDs = (0..<count).compactMap { reader.u32(chunk + Int(chunkHeader) + $0 * 4) }
            case 0x0100, 0x0101:
                continue
            case 0x0102:
                guard stack.count < maximumDepth else {
                    throw ArtifactFormatError(offset: chunk, reason: "elements nested deeper than \(maximumDepth)")
                }
                let ext = chunk + Int(chunkHeader)
                guard let line = reader.u32(chunk + 8), let name = reader.u32(ext + 4),
                      let start = reader.u16(ext + 8), let width = reader.u16(ext + 10),
                      let count = reader.u16(ext + 12), width >= 20,
                      ext + Int(start) + Int(count) * Int(width) <= chunk + Int(chunkSize) else {
                    throw ArtifactFormatError(offset: chunk, reason: "an element whose attributes run outside it")
                }
                var attributes: [BinaryXMLElement.Attribute] = []
                for index in 0..<Int(count) {
                    let at = ext + Int(start) + index * Int(width)
                    guard let namespace = reader.u32(at), let attributeName = reader.u32(at + 4),
                          let raw = reader.u32(at + 8), let type = reader.u8(at + 15), let data = reader.u32(at + 16)
                    else { throw ArtifactFormatError(offset: at, reason: "an attribute cut short") }
                    let value: BinaryXMLElement.Value
                    switch type {
                    case 0x01: value = .reference(data)
                    case 0x03: value = .string(try strings.string(Int(data), at: at))
                    case 0x10, 0x11: value = .integer(Int64(Int32(bitPattern: data)))
                    case 0x12: value = .boolean(data != 0)
                    default:
                        // aapt keeps the source text of a value it did not type (raw), which is what a reader sees.
                        value = raw != 0xFFFF_FFFF ? .string(try strings.string(Int(raw), at: at))
                            : .other(type: type, data: data)
                    }
                    attributes.append(.init(
                        namespace: namespace == 0xFFFF_FFFF ? "" : try strings.string(Int(namespace), at: at),
                        name: try strings.string(Int(attributeName), at: at),
                        resourceID: Int(attributeName) < resourceIDs.count ? resourceIDs[Int(attributeName)] : nil,
                        value: value))
                }
                stack.append((try strings.string(Int(name), at: chunk), attributes, [], "", Int(line)))
            case 0x0103:
                guard let closed = stack.popLast() else {
                    throw ArtifactFormatError(offset: chunk, reason: "an end tag with no element open")
                }
                let element = BinaryXMLElement(name: closed.name, attributes: closed.attributes,
                                               children: closed.children, text: closed.text, line: closed.line)
                if stack.isEmpty {
                    guard root == nil else { throw ArtifactFormatError(offset: chunk, reason: "a second root element") }
                    root = element
                } else {
                    stack[stack.count - 1].children.append(element)
                }
            case 0x0104:
                guard let data = reader.u32(chunk + Int(chunkHeader)) else {
                    throw ArtifactFormatError(offset: chunk, reason: "a text chunk cut short")
                }
                guard !stack.isEmpty else { continue }
                stack[stack.count - 1].text += try strings.string(Int(data), at: chunk)
            default:
                // Chunks of other kinds are skipped, as the platform's parser skips them.
                continue
            }
        }
        guard stack.isEmpty, let root else {
            throw ArtifactFormatError(offset: end,
                                      reason: stack.isEmpty ? "no root element" : "an element never closed")
        }
        return root
    }
}
