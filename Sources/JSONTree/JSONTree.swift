internal import CJansson

/// A JSON value read whole, objects and arrays as Swift collections.
public indirect enum JSONNode: Sendable, Equatable {
    case object([String: JSONNode])
    case array([JSONNode])
    /// A string may hold U+0000 (written `\u0000`); an object's key never does.
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case null
}

/// JSON text read with Jansson: it reports the line and column of a mistake, where FoundationEssentials' decoder on
/// Linux only says that the data is not JSON.
public enum JSONTree {
    /// Why bytes are not one JSON value: Jansson's line (nil when it names none) and message, which ends with the
    /// token it stopped at (`':' expected near '"VALUE"'`), quoted whole: a caller that shows it to a person decides
    /// how much of it to show.
    public struct Failure: Error, Sendable {
        public let line: Int?
        public let message: String
    }

    /// The value `bytes` hold. An object that names a key twice is refused: one of two values would be silently
    /// unread. Nesting deeper than 2048 is refused too (Jansson's limit), which bounds the recursion that copies it.
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONNode {
        var error = json_error_t()
        let flags = JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { json_loadb($0.baseAddress, $0.count, Int(flags), &error) }
        }
        guard let root = parsed else {
            let message = withUnsafeBytes(of: error.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw Failure(line: error.line > 0 ? Int(error.line) : nil, message: message)
        }
        defer { json_decref(root) }
        return value(root)
    }

    private static func value(_ node: UnsafeMutablePointer<json_t>) -> JSONNode {
        switch CJanssonShim_typeof(node) {
        case JSON_OBJECT:
            var members: [String: JSONNode] = [:]
            var iterator = json_object_iter(node)
            while let current = iterator {
                let key = String(cString: json_object_iter_key(current))
                if let member = json_object_iter_value(current) { members[key] = value(member) }
                iterator = json_object_iter_next(node, current)
            }
            return .object(members)
        case JSON_ARRAY:
            return .array((0..<json_array_size(node)).compactMap { index in
                json_array_get(node, index).map { value($0) }
            })
        case JSON_STRING:
            let length = json_string_length(node)
            return .string(String(decoding: UnsafeRawBufferPointer(start: json_string_value(node), count: length),
                                  as: UTF8.self))
        case JSON_INTEGER: return .integer(Int64(json_integer_value(node)))
        case JSON_REAL: return .real(json_real_value(node))
        case JSON_TRUE: return .bool(true)
        case JSON_FALSE: return .bool(false)
        default: return .null
        }
    }
}
