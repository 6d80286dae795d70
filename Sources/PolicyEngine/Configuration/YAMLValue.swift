import Yams

/// A node of a YAML document with the place it was written, so every complaint names the file, line and key path.
///
/// Scalars are read as the text the author wrote (`versions: [4.2, 4.10]` stays "4.2" and "4.10", not numbers).
struct YAMLValue {
    let node: Node
    let file: String
    /// `apps[2].policy`; empty at the root.
    let keyPath: String

    var line: Int? { node.mark.map { $0.line } }
    var column: Int? { node.mark.map { $0.column } }

    /// Parses a whole document; an empty document is a mapping with nothing in it.
    static func document(_ text: String, file: String) throws(ConfigurationError) -> YAMLValue {
        do {
            let node = try Yams.compose(yaml: text) ?? Node.mapping(Node.Mapping([]))
            return YAMLValue(node: node, file: file, keyPath: "")
        } catch let error as YamlError {
            throw Self.describe(error, file: file)
        } catch {
            throw ConfigurationError(file: file, message: "not YAML: \(error)")
        }
    }

    func error(_ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: line, column: column, keyPath: keyPath, message: message)
    }

    /// What the node is, for messages: "a list", "a mapping", "the text 'x'".
    var kind: String {
        switch node {
        case .scalar(let scalar): "'\(scalar.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// The members of a mapping, in document order; a key outside `allowed` or written twice is an error.
    func mapping(allowed: [String]) throws(ConfigurationError) -> [(key: String, value: YAMLValue)] {
        guard case .mapping(let mapping) = node else { throw error("expected a mapping, found \(kind)") }
        var members: [(key: String, value: YAMLValue)] = []
        for (keyNode, valueNode) in mapping {
            let keyValue = YAMLValue(node: keyNode, file: file, keyPath: keyPath)
            guard case .scalar(let scalar) = keyNode else { throw keyValue.error("a key must be text, found \(keyValue.kind)") }
            let key = scalar.string
            let member = YAMLValue(node: valueNode, file: file, keyPath: Self.join(keyPath, key))
            guard allowed.isEmpty || allowed.contains(key) else {
                throw keyValue.error("unknown key '\(key)' (expected \(Self.list(allowed)))")
            }
            guard !members.contains(where: { $0.key == key }) else { throw keyValue.error("'\(key)' is given twice") }
            members.append((key, member))
        }
        return members
    }

    /// A mapping with any keys (host names, patterns), in document order.
    func anyMapping() throws(ConfigurationError) -> [(key: String, value: YAMLValue)] {
        try mapping(allowed: [])
    }

    /// The elements of a sequence.
    func sequence() throws(ConfigurationError) -> [YAMLValue] {
        guard case .sequence(let sequence) = node else { throw error("expected a list, found \(kind)") }
        return sequence.enumerated().map { index, element in
            YAMLValue(node: element, file: file, keyPath: keyPath + "[\(index)]")
        }
    }

    /// A sequence, or a single scalar standing for a one-element list.
    func sequenceOrScalar() throws(ConfigurationError) -> [YAMLValue] {
        if case .scalar = node { return [self] }
        return try sequence()
    }

    /// The text of a scalar, as written.
    func string() throws(ConfigurationError) -> String {
        guard case .scalar(let scalar) = node else { throw error("expected text, found \(kind)") }
        return scalar.string
    }

    /// `true` or `false` (YAML's yes/no spellings are refused: they surprise people).
    func bool() throws(ConfigurationError) -> Bool {
        switch try string() {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        case let other: throw error("expected true or false, found '\(other)'")
        }
    }

    /// A whole number.
    func integer() throws(ConfigurationError) -> Int {
        let text = try string()
        guard let value = Int(text) else { throw error("expected a whole number, found '\(text)'") }
        return value
    }

    static func join(_ path: String, _ key: String) -> String {
        let simple = !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        let component = simple ? key : "['\(key)']"
        if path.isEmpty { return simple ? key : component }
        return simple ? path + "." + key : path + component
    }

    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "nothing" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    private static func describe(_ error: YamlError, file: String) -> ConfigurationError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _):
            let detail = context.map { "\($0.text) " } ?? ""
            return ConfigurationError(file: file, line: mark.line, column: mark.column,
                                      message: "not valid YAML: \(detail)\(problem)")
        case .composer(let context, let problem, let mark, _):
            let detail = context.map { "\($0.text) " } ?? ""
            return ConfigurationError(file: file, line: mark.line, column: mark.column,
                                      message: "not valid YAML: \(detail)\(problem)")
        default:
            return ConfigurationError(file: file, message: "not valid YAML: \(error)")
        }
    }
}
