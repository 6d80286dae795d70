internal import CLibYAML

/// The one document of a YAML text, read through libyaml's event API.
public enum YAMLDocument {
    /// The nesting Yams' copy of libyaml allowed (its MAX_NESTING_LEVEL): block indentation levels and flow levels
    /// together, as its scanner counts them. The libyaml of Debian 12 (0.2.5) has no limit; deeper files would overflow
    /// the stack of the recursion that builds, and frees, the tree.
    public static let maximumNesting = 1000
    /// A second guard, on the tree itself, for what the first does not count (a list written without indentation as
    /// the value of a mapping): with both, a tree is at most about 2 000 deep.
    public static let maximumDepth = 2048
    /// Nodes (scalars, lists and mappings) a document may hold with its aliases expanded: far beyond any policy file,
    /// far below a billion laughs.
    public static let maximumExpansion = 100_000

    /// The root node of the text's single document; `nil` for a text without one (empty, or only comments).
    ///
    /// What is refused, and how, follows Yams' `compose(yaml:)`, which pinctl used before: a second document, an
    /// alias to an anchor not yet complete, a key written twice in a mapping, nesting past Yams' limit; and, unlike
    /// Yams, aliases that expand the document past `maximumExpansion` nodes.
    public static func root(of text: String) throws(YAMLParseError) -> YAMLNode? {
        // A NUL after the text, so that even an empty text has an address: libyaml asserts its input is not NULL.
        let bytes = Array(text.utf8) + [0]
        return try bytes.withUnsafeBufferPointer { (buffer) throws(YAMLParseError) -> YAMLNode? in
            let events = EventReader(input: buffer.baseAddress!, count: buffer.count - 1)
            try events.expect(YAML_STREAM_START_EVENT)
            guard try events.next().type != YAML_STREAM_END_EVENT else { return nil }
            var composer = Composer(events: events)
            let (node, _) = try composer.node(from: try events.next(), depth: 1)
            _ = try events.next()  // the document's end
            let following = try events.next()
            guard following.type == YAML_STREAM_END_EVENT else {
                throw .syntax(context: "expected a single document in the stream",
                              problem: "but found another document", mark: following.mark)
            }
            return node
        }
    }
}

/// One libyaml event, copied out so that the C event is freed as soon as it is read.
struct Event {
    let type: yaml_event_type_t
    let mark: YAMLMark
    /// A scalar's text, or an alias's anchor.
    var text = ""
    /// The anchor a scalar, list or mapping defines (`&name`).
    var anchor: String?
    /// A scalar's YAML tag as Yams named it: `nil` for a plain scalar without one (resolved from its text).
    var tag: String?
}

/// A libyaml parser over bytes the caller keeps alive and unmoved while it reads.
final class EventReader {
    private var parser = yaml_parser_t()

    init(input: UnsafePointer<UInt8>, count: Int) {
        // Fails only without memory for its buffers.
        guard yaml_parser_initialize(&parser) == 1 else { fatalError("libyaml: out of memory") }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, input, count)
    }

    deinit { yaml_parser_delete(&parser) }

    func expect(_ type: yaml_event_type_t) throws(YAMLParseError) {
        let event = try next()
        precondition(event.type == type, "libyaml: a stream that does not start with STREAM-START")
    }

    func next() throws(YAMLParseError) -> Event {
        var event = yaml_event_t()
        guard yaml_parser_parse(&parser, &event) == 1 else { throw error() }
        defer { yaml_event_delete(&event) }
        var copy = Event(type: event.type, mark: YAMLMark(event.start_mark))
        switch event.type {
        case YAML_ALIAS_EVENT:
            copy.text = Self.string(event.data.alias.anchor) ?? ""
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            // A scalar may hold NUL characters: its length, not a C string.
            var bytes = UnsafeBufferPointer(start: UnsafePointer(scalar.value), count: scalar.length)[...]
            // Yams decoded scalars with Foundation's String(bytes:encoding:), which drops a leading byte order mark.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            copy.text = String(decoding: bytes, as: UTF8.self)
            copy.anchor = Self.string(scalar.anchor)
            copy.tag = scalar.quoted_implicit == 1 ? YAMLTag.str : Self.string(scalar.tag)
        case YAML_SEQUENCE_START_EVENT:
            copy.anchor = Self.string(event.data.sequence_start.anchor)
            try checkNesting(copy)
        case YAML_MAPPING_START_EVENT:
            copy.anchor = Self.string(event.data.mapping_start.anchor)
            try checkNesting(copy)
        default:
            break
        }
        return copy
    }

    /// Yams' libyaml refused a list or mapping, other than a list written without indentation, when its scanner's
    /// indentation levels and flow levels reached 1000. The scanner reads up to 1024 characters ahead, so in
    /// `[[[[…` this is already the second `[`. What it looked at is still there once the event is made: the state
    /// the parser moved to, and the list's or mapping's token at the head of the queue.
    private func checkNesting(_ event: Event) throws(YAMLParseError) {
        let checked = [YAML_PARSE_FLOW_SEQUENCE_FIRST_ENTRY_STATE, YAML_PARSE_FLOW_MAPPING_FIRST_KEY_STATE,
                       YAML_PARSE_BLOCK_SEQUENCE_FIRST_ENTRY_STATE, YAML_PARSE_BLOCK_MAPPING_FIRST_KEY_STATE]
        guard checked.contains(parser.state), let token = parser.tokens.head, token != parser.tokens.tail else { return }
        let levels = parser.indents.top - parser.indents.start
        guard levels >= YAMLDocument.maximumNesting - Int(parser.flow_level) else { return }
        throw .syntax(context: "while parsing",
                      problem: "Maximum nesting level reached, set with yaml_set_max_nest_level())",
                      mark: YAMLMark(token.pointee.start_mark))
    }

    private func error() -> YAMLParseError {
        let problem = parser.problem.map { String(cString: $0) } ?? ""
        switch parser.error {
        case YAML_READER_ERROR:
            return .reader(problem: problem, offset: parser.problem_offset, value: parser.problem_value)
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            return .syntax(context: parser.context.map { String(cString: $0) }, problem: problem,
                           mark: YAMLMark(parser.problem_mark))
        default:
            return .memory
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

extension YAMLMark {
    /// libyaml counts lines and columns from 0.
    init(_ mark: yaml_mark_t) { self.init(line: mark.line + 1, column: mark.column + 1) }
}
