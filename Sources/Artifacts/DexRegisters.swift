// What the scanner knows of a method's registers as it walks the method's instructions.

/// A `String[]` being filled: shared by the registers that hold it, as the array is.
final class StringArray {
    var elements: [String?]
    /// Handed to other code, or written at an index the method does not fix.
    var unknown: String?

    init(_ elements: [String?]) { self.elements = elements }
}

enum Register {
    /// A string of the file's table, by index: decoded only when a call or array wants it.
    case string(Int)
    case integer(Int)
    case array(StringArray)
}

/// A method's registers: what each holds, nil when nothing is known. A register beyond the method's frame (which
/// only a malformed file names) holds nothing.
struct Registers {
    private var values: [Register?]

    init(count: Int) { values = Array(repeating: nil, count: count) }

    subscript(_ index: Int) -> Register? {
        get { index < values.count ? values[index] : nil }
        set { if index < values.count { values[index] = newValue } }
    }

    mutating func clear() { values = Array(repeating: nil, count: values.count) }

    var all: [Register] { values.compactMap { $0 } }
}
