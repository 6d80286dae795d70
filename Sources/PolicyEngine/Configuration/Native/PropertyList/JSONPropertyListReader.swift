internal import CJansson
import FoundationEssentials
import OpenSSLWrapper

/// TrustKit's configuration written as JSON, read with Jansson: it reports the line and column of a mistake, where
/// FoundationEssentials' decoder on Linux only says that the data is not JSON.
enum JSONPropertyListReader {
    struct Failure: Error {
        let line: Int?
        let message: String
    }

    static func read(_ bytes: [UInt8]) throws(Failure) -> PropertyListValue {
        var error = json_error_t()
        // A key given twice would leave one of two policies silently unread. A string value may hold \u0000 (a key
        // never can, in Jansson).
        let flags = JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { json_loadb($0.baseAddress, $0.count, Int(flags), &error) }
        }
        guard let root = parsed else {
            let message = withUnsafeBytes(of: error.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw Failure(line: error.line > 0 ? Int(error.line) : nil, message: quotingLess(message))
        }
        defer { json_decref(root) }
        return value(root)
    }

    /// Jansson ends a message with the token it stopped at (`':' expected near '"VALUE"'`), and `config:` can name
    /// any file, a credentials JSON too: a string token is named, not quoted (a whole string value can be a secret),
    /// any other token is quoted as `UntrustedText` excerpts.
    static func quotingLess(_ message: String) -> String {
        guard let near = message.firstRange(of: " near '"), message.hasSuffix("'"),
              near.upperBound < message.index(before: message.endIndex)
        else { return message }
        let token = message[near.upperBound..<message.index(before: message.endIndex)]
        let shown = token.hasPrefix("\"") ? "a string" : "'\(UntrustedText.excerpt(token))'"
        return message[..<near.lowerBound] + " near " + shown
    }

    /// Jansson refuses nesting deeper than 2048 while parsing, so this recursion is bounded.
    private static func value(_ node: UnsafeMutablePointer<json_t>) -> PropertyListValue {
        switch CJanssonShim_typeof(node) {
        case JSON_OBJECT:
            var members: [String: PropertyListValue] = [:]
            var iterator = json_object_iter(node)
            while let current = iterator {
                let key = String(cString: json_object_iter_key(current))
                if let member = json_object_iter_value(current) { members[key] = value(member) }
                iterator = json_object_iter_next(node, current)
            }
            return .dictionary(members)
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
