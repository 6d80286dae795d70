import TextSyntax
import YAMLSyntax

/// A node of a YAML document with the place it was written, so every complaint names the file, line and key path.
///
/// Scalars are read as the text the author wrote (`versions: [4.2, 4.10]` stays "4.2" and "4.10", not numbers).
struct YAMLValue {
    let node: YAMLNode
    let file: String
    /// `apps[2].policy`; empty at the root.
    let keyPath: String
    /// Where the text ends, for marks that libyaml puts past it.
    let end: TextEnd

    var line: Int? { node.mark.map { end.clamp($0).line } }
    var column: Int? { node.mark.map { end.clamp($0).column } }

    /// The line and column just after a text's last character, counted as libyaml counts them: lines end at LF, CR,
    /// CR LF, NEL, LS or PS; a column is a character.
    struct TextEnd {
        let line: Int
        let column: Int

        init(_ text: String) {
            var line = 1
            var column = 1
            var afterCR = false
            for scalar in text.unicodeScalars {
                defer { afterCR = scalar == "\r" }
                // libyaml drops a leading byte order mark, and reads CR LF as one break.
                if scalar == "\u{FEFF}", line == 1, column == 1 { continue }
                if scalar == "\n", afterCR { continue }
                if ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            (self.line, self.column) = (line, column)
        }

        /// libyaml ends a text that lacks a final line break with one of its own, so a mark at the end of such a text
        /// (an error there, an empty value) is on a line after the file's last: it is the end of that last line.
        func clamp(_ mark: YAMLMark) -> (line: Int, column: Int) {
            mark.line > line ? (line, column) : (mark.line, mark.column)
        }
    }

    /// Parses a whole document; an empty document is a mapping with nothing in it.
    static func document(_ text: String, file: String) throws(ConfigurationError) -> YAMLValue {
        // YAML 1.2 (5.2) allows a byte order mark at the start of a stream; libyaml skips it only when it detects the
        // encoding itself, and pinctl tells it the encoding.
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        do {
            let node = try YAMLDocument.root(of: text) ?? .mapping([], nil)
            return YAMLValue(node: node, file: file, keyPath: "", end: TextEnd(text))
        } catch {
            throw Self.describe(error, text: text, file: file)
        }
    }

    func error(_ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: line, column: column, keyPath: keyPath, message: message)
    }

    /// What the node is, for messages: "a list", "a mapping", "the text 'x'".
    var kind: String {
        switch node {
        case .scalar(let text, _): "'\(text)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }

    /// The members of a mapping, in document order; a key outside `allowed` or written twice is an error.
    func mapping(allowed: [String]) throws(ConfigurationError) -> [(key: String, value: YAMLValue)] {
        guard case .mapping(let mapping, _) = node else { throw error("expected a mapping, found \(kind)") }
        var members: [(key: String, value: YAMLValue)] = []
        for (keyNode, valueNode) in mapping {
            let keyValue = YAMLValue(node: keyNode, file: file, keyPath: keyPath, end: end)
            guard case .scalar(let key, _) = keyNode else {
                throw keyValue.error("a key must be text, found \(keyValue.kind)")
            }
            let member = YAMLValue(node: valueNode, file: file, keyPath: Self.join(keyPath, key), end: end)
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
        guard case .sequence(let sequence, _) = node else { throw error("expected a list, found \(kind)") }
        return sequence.enumerated().map { index, element in
            YAMLValue(node: element, file: file, keyPath: keyPath + "[\(index)]", end: end)
        }
    }

    /// A sequence, or a single scalar standing for a one-element list.
    func sequenceOrScalar() throws(ConfigurationError) -> [YAMLValue] {
        if case .scalar = node { return [self] }
        return try sequence()
    }

    /// The text of a scalar, as written.
    func string() throws(ConfigurationError) -> String {
        guard case .scalar(let text, _) = node else { throw error("expected text, found \(kind)") }
        return text
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

    /// The messages Yams gave, which pinctl printed before it read YAML with libyaml itself.
    private static func describe(_ error: YAMLParseError, text: String, file: String) -> ConfigurationError {
        let end = TextEnd(text)
        switch error {
        case .syntax(let context, let problem, let mark):
            let detail = context.map { "\($0) " } ?? ""
            let (line, column) = end.clamp(mark)
            return ConfigurationError(file: file, line: line, column: column,
                                      message: "not valid YAML: \(detail)\(problem)")
        case .tooDeep(let mark):
            let (line, column) = end.clamp(mark)
            return ConfigurationError(file: file, line: line, column: column,
                                      message: "lists and mappings nested more than \(YAMLDocument.maximumDepth) deep")
        case .reader(let problem, let offset, let value):
            return ConfigurationError(file: file, message: "not valid YAML: "
                                      + YAMLReaderSnippet.describe(problem, offset: offset, value: value, in: text))
        case .duplicateKey(let key, let mark):
            let (line, column) = end.clamp(mark)
            let shown = UntrustedText.excerpt(key)
            return ConfigurationError(file: file, line: line, column: column,
                                      message: "the key '\(shown)' is written twice in one mapping")
        case .tooManyNodes(let mark, let byAliases):
            let (line, column) = end.clamp(mark)
            let cap = YAMLDocument.maximumExpansion
            let message = byAliases
                ? "aliases expand the document past \(cap) nodes: write the values out"
                : "the document holds more than \(cap) nodes (scalars, lists and mappings), the most pinctl reads in "
                    + "a policy file"
            return ConfigurationError(file: file, line: line, column: column, message: message)
        case .memory:
            return ConfigurationError(file: file, message: "not valid YAML: Memory error")
        }
    }
}

/// Yams' text for a character libyaml does not read: the place (Yams quoted the line too).
private enum YAMLReaderSnippet {
    static func describe(_ problem: String, offset: Int, value: Int32, in text: String) -> String {
        guard let byte = text.utf8.index(text.utf8.startIndex, offsetBy: offset, limitedBy: text.utf8.endIndex),
              let index = byte.samePosition(in: text)
        else { return "\(problem) at offset: nil, value: \(value)" }
        var number = 0
        var start = text.startIndex
        var end = lineEnd(from: start, in: text)
        while end <= index && end < text.endIndex {
            number += 1
            start = end
            end = lineEnd(from: start, in: text)
        }
        // Yams counted this column in UTF-16 code units, unlike libyaml's marks.
        let column = text.utf16.distance(from: start, to: index)
        // Yams quoted the line here, with a caret under the character; pinctl quotes no line whole (UntrustedText).
        return "\(number + 1):\(column + 1): error: reader: \(problem)"
    }

    /// Just after the line break ending the line that starts at `start` (LF, CR, CR LF, NEL, LS or PS, as Foundation's
    /// `getLineStart` ends lines), or the end of the text.
    private static func lineEnd(from start: String.Index, in text: String) -> String.Index {
        let scalars = text.unicodeScalars
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" { return scalars.index(after: index) }
            if ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) { return index }
        }
        return index
    }
}
