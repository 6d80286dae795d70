import FileAccess

/// A JSON value whose objects keep their key order, so output follows DESIGN §5 field by field.
enum JSONValue {
    case string(String)
    case number(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Compact, one line: the `--format json` contract is one object per line. A `#` that would form `##[` is written
    /// `\u0023`, which reads back the same but is no workflow command to a GitHub Actions runner (`RunnerCommands`).
    var serialized: String {
        var output = ""
        write(to: &output)
        return RunnerCommands.neutralised(output, hash: "\\u0023", colon: "\\u003A")
    }

    private func write(to output: inout String) {
        switch self {
        case .string(let text): Self.quote(text, into: &output)
        case .number(let value): output += String(value)
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.quote(key, into: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func quote(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let digits = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            case _ where PathBytes.escapedByte(scalar) != nil:
                // A file-name byte that is not UTF-8 has no JSON form: it is written as the text \xFF.
                let digits = String(PathBytes.escapedByte(scalar)!, radix: 16, uppercase: true)
                output += "\\\\x" + (digits.count == 1 ? "0" : "") + digits
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension JSONValue {
    init(_ text: String?) { self = text.map { .string($0) } ?? .null }
}
