/// A Dalvik executable (`classes.dex`, `classes2.dex` …) as d8 and R8 write it: its strings, types, method
/// references and the code of the methods its classes define. Read as data, every table and offset checked against the
/// file before use (source.android.com/docs/core/runtime/dex-format); which calls pin is PolicyEngine's business.
public struct DexFile: Sendable {
    /// A method a call names: its class and name as the DEX spells them, and its parameter and return descriptors.
    public struct MethodReference: Sendable, Hashable {
        /// A type descriptor: `Lokhttp3/CertificatePinner$Builder;`.
        public let owner: String
        public let name: String
        public let parameters: [String]
        public let returnType: String

        /// `com.example.Net.pinner(String, int)`: as a person reads it in a stack trace.
        public var readable: String {
            DexFile.readableType(owner) + "." + name + "(" + parameters.map { DexFile.readableType($0, simple: true) }
                .joined(separator: ", ") + ")"
        }
    }

    /// A method the file defines with code.
    struct Method {
        let index: Int
        let registers: Int
        /// Where its instructions start, in bytes, and how many 16-bit units they hold.
        let instructions: Int
        let units: Int
        /// The addresses (in units) exception handlers start at: where control arrives from elsewhere.
        let handlers: [Int]
    }

    let reader: ChunkReader
    private let stringOffsets: [Int]
    private let typeStrings: [Int]
    private let methodIDs: Int
    private let methodCount: Int
    private let protoIDs: Int
    private let protoCount: Int
    /// Each defined class's type and its superclass's (nil for `java.lang.Object`).
    let classes: [(type: Int, superclass: Int?, data: Int)]

    public static func parse(_ bytes: [UInt8]) throws(ArtifactFormatError) -> DexFile {
        let reader = ChunkReader(bytes)
        guard bytes.count >= 0x70, bytes[0..<4].elementsEqual("dex\n".utf8), bytes[7] == 0 else {
            throw ArtifactFormatError(offset: 0, reason: "no DEX header (dex\\n0NN\\0)")
        }
        guard reader.u32(40) == 0x1234_5678 else {
            throw ArtifactFormatError(offset: 40, reason: "not a little-endian DEX (its endian tag)")
        }
        /// A table of `count` items of `size` bytes at the offsets the header gives at `field`.
        func table(_ field: Int, size: Int, _ what: String) throws(ArtifactFormatError) -> (start: Int, count: Int) {
            guard let count = reader.u32(field).map(Int.init), let start = reader.u32(field + 4).map(Int.init),
                  count <= bytes.count / size, count == 0 || (start >= 0x70 && start + count * size <= bytes.count)
            else {
                throw ArtifactFormatError(offset: field, reason: "its \(what) table lies outside the file")
            }
            return (start, count)
        }
        let strings = try table(56, size: 4, "string")
        let types = try table(64, size: 4, "type")
        let protos = try table(72, size: 12, "prototype")
        let methods = try table(88, size: 8, "method")
        let classDefs = try table(96, size: 32, "class")
        var stringOffsets: [Int] = []
        stringOffsets.reserveCapacity(strings.count)
        for index in 0..<strings.count {
            let at = strings.start + index * 4
            guard let offset = reader.u32(at).map(Int.init), offset < bytes.count else {
                throw ArtifactFormatError(offset: at, reason: "string \(index) lies outside the file")
            }
            stringOffsets.append(offset)
        }
        var typeStrings: [Int] = []
        typeStrings.reserveCapacity(types.count)
        for index in 0..<types.count {
            let at = types.start + index * 4
            guard let string = reader.u32(at).map(Int.init), string < stringOffsets.count else {
                throw ArtifactFormatError(offset: at, reason: "type \(index) names string \(reader.u32(at) ?? 0) "
                    + "of \(stringOffsets.count)")
            }
            typeStrings.append(string)
        }
        var classes: [(type: Int, superclass: Int?, data: Int)] = []
        for index in 0..<classDefs.count {
            let at = classDefs.start + index * 32
            guard let type = reader.u32(at).map(Int.init), type < typeStrings.count,
                  let superclass = reader.u32(at + 8), superclass == 0xFFFF_FFFF || Int(superclass) < typeStrings.count,
                  let data = reader.u32(at + 24).map(Int.init), data < bytes.count else {
                throw ArtifactFormatError(offset: at, reason: "class definition \(index) names a type or data "
                    + "outside the file")
            }
            classes.append((type, superclass == 0xFFFF_FFFF ? nil : Int(superclass), data))
        }
        return DexFile(reader: reader, stringOffsets: stringOffsets, typeStrings: typeStrings,
                       methodIDs: methods.start, methodCount: methods.count, protoIDs: protos.start,
                       protoCount: protos.count, classes: classes)
    }

    public var stringCount: Int { stringOffsets.count }

    /// Whether string `index` begins with the bytes `prefix` (ASCII): a test that decodes nothing, for the many
    /// strings a DEX holds.
    public func string(_ index: Int, hasPrefix prefix: [UInt8]) -> Bool {
        guard index >= 0, index < stringOffsets.count else { return false }
        var at = stringOffsets[index]
        guard reader.uleb128(&at) != nil, at + prefix.count <= reader.bytes.count else { return false }
        for (offset, byte) in prefix.enumerated() where reader.bytes[at + offset] != byte { return false }
        return true
    }

    /// String `index`, decoded from the DEX's modified UTF-8 (`place` refers to it, for the error).
    public func string(_ index: Int, at place: Int = 0) throws(ArtifactFormatError) -> String {
        guard index >= 0, index < stringOffsets.count else {
            throw ArtifactFormatError(offset: place, reason: "string \(index) of \(stringOffsets.count)")
        }
        var at = stringOffsets[index]
        guard let length = reader.uleb128(&at) else {
            throw ArtifactFormatError(offset: stringOffsets[index], reason: "string \(index) runs outside the file")
        }
        // Most strings are ASCII: `length` bytes below 0x80, then the 0 byte.
        if at + length < reader.bytes.count, reader.bytes[at + length] == 0,
           !reader.bytes[at..<at + length].contains(where: { $0 == 0 || $0 >= 0x80 }) {
            return String(decoding: reader.bytes[at..<at + length], as: UTF8.self)
        }
        var units: [UInt16] = []
        units.reserveCapacity(min(length, reader.bytes.count - at))
        // MUTF-8: NUL as C0 80, characters beyond the BMP as two 3-byte surrogates; the data ends at a 0 byte.
        while units.count < length {
            guard let first = reader.u8(at) else { break }
            let count = first < 0x80 ? 1 : first & 0xE0 == 0xC0 ? 2 : first & 0xF0 == 0xE0 ? 3 : 0
            guard first != 0, count > 0, at + count <= reader.bytes.count,
                  count < 2 || reader.bytes[at + 1] & 0xC0 == 0x80,
                  count < 3 || reader.bytes[at + 2] & 0xC0 == 0x80 else {
                throw ArtifactFormatError(offset: at, reason: "string \(index) is not modified UTF-8")
            }
            var unit = count == 1 ? UInt16(first) : count == 2 ? UInt16(first & 0x1F) : UInt16(first & 0x0F)
            for next in 1..<max(count, 1) { unit = unit << 6 | UInt16(reader.bytes[at + next] & 0x3F) }
            units.append(unit)
            at += count
        }
        guard units.count == length, reader.u8(at) == 0 else {
            throw ArtifactFormatError(offset: stringOffsets[index], reason: "string \(index) is not \(length) "
                + "UTF-16 units ended by a 0 byte")
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// The descriptor of type `index` (`Ljava/lang/String;`).
    public func type(_ index: Int, at place: Int = 0) throws(ArtifactFormatError) -> String {
        guard index >= 0, index < typeStrings.count else {
            throw ArtifactFormatError(offset: place, reason: "type \(index) of \(typeStrings.count)")
        }
        return try string(typeStrings[index], at: place)
    }

    /// Method reference `index`: `method_id_item` and its prototype's `type_list`.
    public func method(_ index: Int, at place: Int = 0) throws(ArtifactFormatError) -> MethodReference {
        guard index >= 0, index < methodCount, let owner = reader.u16(methodIDs + index * 8),
              let proto = reader.u16(methodIDs + index * 8 + 2), Int(proto) < protoCount,
              let name = reader.u32(methodIDs + index * 8 + 4) else {
            throw ArtifactFormatError(offset: place, reason: "method \(index) of \(methodCount), or its prototype")
        }
        let protoAt = protoIDs + Int(proto) * 12
        guard let returnType = reader.u32(protoAt + 4), let parametersAt = reader.u32(protoAt + 8).map(Int.init) else {
            throw ArtifactFormatError(offset: protoAt, reason: "prototype \(proto) lies outside the file")
        }
        var parameters: [String] = []
        if parametersAt != 0 {
            guard let count = reader.u32(parametersAt).map(Int.init), count <= 255,
                  parametersAt + 4 + count * 2 <= reader.bytes.count else {
                throw ArtifactFormatError(offset: protoAt, reason: "a parameter list outside the file")
            }
            for parameter in 0..<count {
                parameters.append(try type(Int(reader.u16(parametersAt + 4 + parameter * 2)!), at: protoAt))
            }
        }
        return MethodReference(owner: try type(Int(owner), at: place), name: try string(Int(name), at: place),
                               parameters: parameters, returnType: try type(Int(returnType), at: protoAt))
    }

    /// The superclass each class the file defines names (`Lcom/example/Net$1;` →
    /// `Lokhttp3/CertificatePinner$Builder;`).
    public func superclasses() throws(ArtifactFormatError) -> [String: String] {
        var superclasses: [String: String] = [:]
        for defined in classes {
            guard let superclass = defined.superclass else { continue }
            superclasses[try type(defined.type)] = try type(superclass)
        }
        return superclasses
    }

    /// Every method with code, in the order the classes and their `class_data_item`s list them.
    func methods() throws(ArtifactFormatError) -> [Method] {
        var found: [Method] = []
        for defined in classes where defined.data != 0 {
            var at = defined.data
            guard let staticFields = reader.uleb128(&at), let instanceFields = reader.uleb128(&at),
                  let direct = reader.uleb128(&at), let virtual = reader.uleb128(&at),
                  staticFields + instanceFields + direct + virtual <= reader.bytes.count else {
                throw ArtifactFormatError(offset: defined.data, reason: "class data outside the file")
            }
            for _ in 0..<(staticFields + instanceFields) * 2 {
                guard reader.uleb128(&at) != nil else {
                    throw ArtifactFormatError(offset: defined.data, reason: "class data outside the file")
                }
            }
            for count in [direct, virtual] {
                var index = 0
                for _ in 0..<count {
                    let start = at
                    guard let difference = reader.uleb128(&at), reader.uleb128(&at) != nil,
                          let code = reader.uleb128(&at) else {
                        throw ArtifactFormatError(offset: start, reason: "a method entry outside the file")
                    }
                    index += difference
                    guard index < methodCount else {
                        throw ArtifactFormatError(offset: start, reason: "method \(index) of \(methodCount)")
                    }
                    if code != 0 { found.append(try method(index, code: code, namedAt: start)) }
                }
            }
        }
        return found
    }

    /// The `code_item` at `offset` of method `index`; `place` names it, for errors about where it lies.
    private func method(_ index: Int, code offset: Int, namedAt place: Int) throws(ArtifactFormatError) -> Method {
        guard let registers = reader.u16(offset), let tries = reader.u16(offset + 6).map(Int.init),
              let units = reader.u32(offset + 12).map(Int.init), units <= reader.bytes.count / 2,
              offset + 16 + units * 2 <= reader.bytes.count else {
            throw ArtifactFormatError(offset: place, reason: "the code of method \(index) lies outside the file")
        }
        var handlers: [Int] = []
        if tries > 0 {
            // The try items (4-byte aligned after the instructions), then the handler list every item points into:
            // read whole, for where each handler starts.
            var at = offset + 16 + units * 2 + (units % 2 == 1 ? 2 : 0) + tries * 8
            guard at <= reader.bytes.count, let lists = reader.uleb128(&at), lists <= tries else {
                throw ArtifactFormatError(offset: offset, reason: "the handlers of method \(index) lie outside "
                    + "the file")
            }
            for _ in 0..<lists {
                guard let size = reader.sleb128(&at), abs(size) <= 0xFFFF else {
                    throw ArtifactFormatError(offset: at, reason: "a handler list outside the file")
                }
                for _ in 0..<abs(size) {
                    guard reader.uleb128(&at) != nil, let address = reader.uleb128(&at) else {
                        throw ArtifactFormatError(offset: at, reason: "a handler outside the file")
                    }
                    handlers.append(address)
                }
                if size <= 0 {
                    guard let address = reader.uleb128(&at) else {
                        throw ArtifactFormatError(offset: at, reason: "a handler outside the file")
                    }
                    handlers.append(address)
                }
            }
        }
        return Method(index: index, registers: Int(registers), instructions: offset + 16, units: units,
                      handlers: handlers)
    }

    /// `Lcom/example/Net$Builder;` → `com.example.Net$Builder` (`simple`: `Net$Builder`); arrays as `String[]`.
    static func readableType(_ descriptor: String, simple: Bool = false) -> String {
        var dimensions = 0
        var rest = Substring(descriptor)
        while rest.first == "[" {
            dimensions += 1
            rest = rest.dropFirst()
        }
        let base: String
        switch rest {
        case "Z": base = "boolean"
        case "B": base = "byte"
        case "S": base = "short"
        case "C": base = "char"
        case "I": base = "int"
        case "J": base = "long"
        case "F": base = "float"
        case "D": base = "double"
        case "V": base = "void"
        default:
            let name = rest.hasPrefix("L") && rest.hasSuffix(";") ? rest.dropFirst().dropLast() : rest
            let dotted = name.replacing("/", with: ".")
            base = simple ? String(dotted.split(separator: ".").last ?? dotted) : String(dotted)
        }
        return base + String(repeating: "[]", count: dimensions)
    }
}
