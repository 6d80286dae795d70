extension DexFile {
    /// A call of a wanted method, with what each argument register holds at the call.
    public struct Call: Sendable {
        public let caller: MethodReference
        /// The call's place in the file, in bytes.
        public let offset: Int
        public let method: MethodReference
        /// Every argument register, the receiver first for an instance call.
        public let arguments: [Value]
    }

    /// What a register holds, as far as the calling method alone fixes it.
    public enum Value: Sendable, Equatable {
        case string(String)
        /// A `String[]` made in the method (`filled-new-array`, or `new-array` and `aput-object` of constant
        /// indices), every element a string constant.
        case strings([String])
        /// Anything else, and why it is not a constant of the method.
        case unknown(String)
    }

    /// A `const-string` of a wanted string, and the method it is in.
    public struct StringUse: Sendable {
        public let string: String
        public let caller: MethodReference
        public let offset: Int
    }

    /// Every call of a method `wanted` answers true for, and every `const-string` of a string that starts with one of
    /// `prefixes`, in the code of every method the file defines.
    ///
    /// What a register holds is followed only within straight-line code: at every place control may arrive from
    /// elsewhere (a branch or switch target, an exception handler) nothing is known, so a value is never taken from
    /// a path that may not have run. An array handed to other code (a call, a field) before the wanted call is not
    /// known either: that code may have changed it.
    public func scan(calling wanted: (MethodReference) -> Bool, stringsStartingWith prefixes: [String])
        throws(ArtifactFormatError) -> (calls: [Call], strings: [StringUse])
    {
        var wantedMethods: [Int: Bool] = [:]
        var wantedStrings: [Int: Bool] = [:]
        let prefixBytes = prefixes.map { Array($0.utf8) }
        var calls: [Call] = []
        var uses: [StringUse] = []
        for method in try methods() {
            var scanner = MethodScanner(file: self, method: method)
            try scanner.run(
                isWanted: { index, place throws(ArtifactFormatError) in
                    if let known = wantedMethods[index] { return known }
                    let answer = wanted(try self.method(index, at: place))
                    wantedMethods[index] = answer
                    return answer
                },
                isWantedString: { index, _ in
                    if let known = wantedStrings[index] { return known }
                    let answer = prefixBytes.contains { string(index, hasPrefix: $0) }
                    wantedStrings[index] = answer
                    return answer
                })
            calls += scanner.calls
            uses += scanner.uses
        }
        return (calls, uses)
    }
}

/// One method's instructions, walked once.
private struct MethodScanner {
    let file: DexFile
    let method: DexFile.Method
    var calls: [DexFile.Call] = []
    var uses: [DexFile.StringUse] = []
    private var caller: DexFile.MethodReference?

    init(file: DexFile, method: DexFile.Method) {
        self.file = file
        self.method = method
    }

    private var reader: ChunkReader { file.reader }

    /// The 16-bit unit `index` of the instruction at `address`: inside the method, as its length was checked first.
    private func unit(_ address: Int, _ index: Int = 0) -> Int {
        Int(reader.u16(method.instructions + (address + index) * 2)!)
    }

    private mutating func callerReference() throws(ArtifactFormatError) -> DexFile.MethodReference {
        if let caller { return caller }
        let found = try file.method(method.index, at: method.instructions)
        caller = found
        return found
    }

    mutating func run(isWanted: (Int, Int) throws(ArtifactFormatError) -> Bool,
                      isWantedString: (Int, Int) throws(ArtifactFormatError) -> Bool) throws(ArtifactFormatError)
    {
        let joins = try self.joins()
        var registers = Registers(count: method.registers)
        var result: StringArray?
        var address = 0
        while address < method.units {
            let place = method.instructions + address * 2
            let length = try instructionLength(at: address)
            if joins.contains(address) { registers.clear() }
            let first = unit(address)
            let op = first & 0xFF, aa = first >> 8, a = (first >> 8) & 0xF, b = first >> 12
            let pending = result
            result = nil
            func escape(_ register: Int) {
                if case .array(let array)? = registers[register] {
                    array.unknown = array.unknown ?? "an array handed to other code before the call"
                }
            }
            switch op {
            case 0x01, 0x07: registers[a] = registers[b]
            case 0x02, 0x08: registers[aa] = registers[unit(address, 1)]
            case 0x03, 0x09: registers[unit(address, 1)] = registers[unit(address, 2)]
            case 0x04, 0x05, 0x06:
                let target = op == 0x04 ? a : op == 0x05 ? aa : unit(address, 1)
                registers[target] = nil
                registers[target + 1] = nil
            case 0x0C: registers[aa] = pending.map { .array($0) }
            case 0x12: registers[a] = .integer(Int(Int8(truncatingIfNeeded: b << 4)) >> 4)
            case 0x13: registers[aa] = .integer(Int(Int16(truncatingIfNeeded: unit(address, 1))))
            case 0x14:
                registers[aa] = .integer(Int(Int32(truncatingIfNeeded: unit(address, 1) | unit(address, 2) << 16)))
            case 0x1A, 0x1B:
                let index = op == 0x1A ? unit(address, 1) : unit(address, 1) | unit(address, 2) << 16
                registers[aa] = .string(index)
                if try isWantedString(index, place) {
                    uses.append(.init(string: try file.string(index, at: place), caller: try callerReference(),
                                      offset: place))
                }
            case 0x23:
                // new-array vA, vB, type: a String[] of a size the method fixes.
                if case .integer(let size)? = registers[b], (0...4096).contains(size),
                   try file.type(unit(address, 1), at: place) == "[Ljava/lang/String;" {
                    registers[a] = .array(StringArray(Array(repeating: nil, count: size)))
                } else {
                    registers[a] = nil
                }
            case 0x24, 0x25:
                let arguments = op == 0x24 ? fiveRegisters(at: address) : rangeRegisters(at: address)
                if try file.type(unit(address, 1), at: place) == "[Ljava/lang/String;" {
                    var elements: [String?] = []
                    for register in arguments {
                        if case .string(let index)? = registers[register] {
                            elements.append(try file.string(index, at: place))
                        } else {
                            elements.append(nil)
                        }
                    }
                    result = StringArray(elements)
                }
            case 0x4D:
                // aput-object vAA (the value), vBB (the array), vCC (the index).
                let array = unit(address, 1) & 0xFF, index = unit(address, 1) >> 8
                escape(aa)
                if case .array(let filled)? = registers[array] {
                    if case .integer(let at)? = registers[index], filled.elements.indices.contains(at) {
                        if case .string(let string)? = registers[aa] {
                            filled.elements[at] = try file.string(string, at: place)
                        } else {
                            filled.elements[at] = nil
                        }
                    } else {
                        filled.unknown = filled.unknown ?? "an array written at an index the method does not fix"
                    }
                }
            case 0x5B: escape(a)
            case 0x69: escape(aa)
            case 0x6E...0x72, 0x74...0x78:
                let arguments = op <= 0x72 ? fiveRegisters(at: address) : rangeRegisters(at: address)
                let index = unit(address, 1)
                if try isWanted(index, place) {
                    calls.append(.init(caller: try callerReference(), offset: place,
                                       method: try file.method(index, at: place),
                                       arguments: try arguments.map { (register) throws(ArtifactFormatError) in
                                           try value(registers[register], at: place)
                                       }))
                }
                arguments.forEach(escape)
            case 0xFA...0xFD:
                for case .array(let array) in registers.all {
                    array.unknown = array.unknown ?? "an array handed to other code before the call"
                }
            default:
                if let written = DexOpcodes.written(op: op, a: a, aa: aa) {
                    registers[written] = nil
                    if DexOpcodes.writesWide.contains(op) { registers[written + 1] = nil }
                }
            }
            address += length
        }
    }

    private func value(_ register: Register?, at place: Int) throws(ArtifactFormatError) -> DexFile.Value {
        switch register {
        case .string(let index): return .string(try file.string(index, at: place))
        case .integer: return .unknown("a number, not a string")
        case .array(let array):
            if let unknown = array.unknown { return .unknown(unknown) }
            let texts = array.elements.compactMap { $0 }
            guard texts.count == array.elements.count else {
                return .unknown("an array some element of which is not a string constant of the method")
            }
            return .strings(texts)
        case nil: return .unknown("not a constant of the method (a parameter, a field, another call's result, or a "
            + "value that depends on a branch)")
        }
    }

    /// `{vC, vD, vE, vF, vG}` of the 35c format, as many as A says.
    private func fiveRegisters(at address: Int) -> [Int] {
        let first = unit(address), third = unit(address, 2)
        let all = [third & 0xF, (third >> 4) & 0xF, (third >> 8) & 0xF, third >> 12, (first >> 8) & 0xF]
        return Array(all.prefix(min(first >> 12, 5)))
    }

    /// `{vCCCC … }` of the 3rc format.
    private func rangeRegisters(at address: Int) -> [Int] {
        let start = unit(address, 2)
        return (0..<(unit(address) >> 8)).map { start + $0 }
    }

    /// Every address control may reach other than from the instruction before: branch and switch targets, handlers.
    private func joins() throws(ArtifactFormatError) -> Set<Int> {
        var joins = Set(method.handlers)
        var address = 0
        while address < method.units {
            let length = try instructionLength(at: address)
            let first = unit(address)
            switch first & 0xFF {
            case 0x28: joins.insert(address + Int(Int8(truncatingIfNeeded: first >> 8)))
            case 0x29, 0x32...0x3D: joins.insert(address + Int(Int16(truncatingIfNeeded: unit(address, 1))))
            case 0x2A: joins.insert(address + Int(Int32(truncatingIfNeeded: unit(address, 1) | unit(address, 2) << 16)))
            case 0x2B, 0x2C:
                let payload = address + Int(Int32(truncatingIfNeeded: unit(address, 1) | unit(address, 2) << 16))
                guard payload >= 0, payload + 2 <= method.units else {
                    throw ArtifactFormatError(offset: method.instructions + address * 2,
                                              reason: "a switch whose table lies outside its method")
                }
                let count = unit(payload, 1)
                let packed = first & 0xFF == 0x2B
                let targets = payload + (packed ? 4 : 2 + count * 2)
                guard targets + count * 2 <= method.units else {
                    throw ArtifactFormatError(offset: method.instructions + payload * 2,
                                              reason: "a switch table that runs outside its method")
                }
                for target in 0..<count {
                    joins.insert(address + Int(Int32(truncatingIfNeeded: unit(targets, target * 2)
                        | unit(targets, target * 2 + 1) << 16)))
                }
            default: break
            }
            address += length
        }
        return joins
    }

    /// How many 16-bit units the instruction (or payload) at `address` takes; refused when it runs past the method.
    private func instructionLength(at address: Int) throws(ArtifactFormatError) -> Int {
        let first = unit(address)
        var length = DexOpcodes.lengths[first & 0xFF]
        if first == 0x0100 || first == 0x0200 || first == 0x0300 {
            // The payloads of packed-switch, sparse-switch and fill-array-data.
            guard address + 4 <= method.units else { length = 4; return try check(address, length) }
            let size = unit(address, 1)
            switch first {
            case 0x0100: length = 4 + size * 2
            case 0x0200: length = 2 + size * 4
            default: length = 4 + ((unit(address, 1) * (unit(address, 2) | unit(address, 3) << 16)) + 1) / 2
            }
        }
        return try check(address, length)
    }

    private func check(_ address: Int, _ length: Int) throws(ArtifactFormatError) -> Int {
        guard length > 0, address + length <= method.units else {
            throw ArtifactFormatError(offset: method.instructions + address * 2,
                                      reason: "an instruction that runs past the end of its method")
        }
        return length
    }
}
