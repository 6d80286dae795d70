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

/// Binary property lists are read by FoundationEssentials' decoder. A collection is opened as one, so a value inside
/// that cannot be read fails the whole decoding at once (retrying the collection as another type would cost twice per
/// level); only a single value is tried as each type in turn, and the binary format keeps them apart.
extension PropertyListValue: Decodable {
    init(from decoder: any Decoder) throws {
        if var elements = try? decoder.unkeyedContainer() {
            var array: [PropertyListValue] = []
            while !elements.isAtEnd { array.append(try elements.decode(PropertyListValue.self)) }
            self = .array(array)
        } else if let members = try? decoder.container(keyedBy: Key.self) {
            var dictionary: [String: PropertyListValue] = [:]
            for key in members.allKeys { dictionary[key.stringValue] = try members.decode(PropertyListValue.self, forKey: key) }
            self = .dictionary(dictionary)
        } else {
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
            } else {
                self = .data(try container.decode(Data.self))
            }
        }
    }

    /// Any key of a dictionary.
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
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
