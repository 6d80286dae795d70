import FoundationEssentials

/// A value of a property list or of its JSON spelling, as TrustKit's configuration holds them: what
/// `PropertyListSerialization` and `NSJSONSerialization` hand TrustKit, without Foundation's object bridge (whose
/// untyped readers pull ICU into the binary).
indirect enum PropertyListValue: Sendable, Equatable {
    case dictionary([String: PropertyListValue])
    case array([PropertyListValue])
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case date(Date)
    case data(Data)
    /// JSON's `null`; no property list holds one.
    case null

    var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let members) = self { return members }
        return nil
    }

    var array: [PropertyListValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// What the value is, for messages: "a string", "an array", "a date".
    var kind: String {
        switch self {
        case .dictionary: "a dictionary"
        case .array: "an array"
        case .string: "a string"
        case .bool: "a boolean"
        case .integer, .real: "a number"
        case .date: "a date"
        case .data: "data"
        case .null: "null"
        }
    }
}

/// Binary property lists are read by FoundationEssentials' decoder, one value at a time: each type is tried in turn,
/// and the binary format keeps them apart (a `<string>` never decodes as a number).
extension PropertyListValue: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .real(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Date.self) {
            self = .date(value)
        } else if let value = try? container.decode(Data.self) {
            self = .data(value)
        } else if let value = try? container.decode([PropertyListValue].self) {
            self = .array(value)
        } else {
            self = .dictionary(try container.decode([String: PropertyListValue].self))
        }
    }
}

/// Written by FoundationEssentials' property list and JSON encoders (`config export --to trustkit`).
extension PropertyListValue: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .dictionary(let members): try container.encode(members)
        case .array(let elements): try container.encode(elements)
        case .string(let text): try container.encode(text)
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .real(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
