internal import CLibYAML

/// Where a node or an error is in the text, counted from 1; a column is a character (a Unicode scalar).
struct YAMLMark: Equatable {
    let line: Int
    let column: Int

    init(line: Int, column: Int) { (self.line, self.column) = (line, column) }

    init(_ mark: yaml_mark_t) { self.init(line: mark.line + 1, column: mark.column + 1) }
}

/// A node of a YAML document: scalars as the text written (never resolved to numbers or booleans). An alias is its
/// anchor's node, marked where the anchor is, as Yams composed it.
indirect enum YAMLNode {
    /// `nil` mark: only the empty mapping that stands for an empty file.
    case scalar(String, YAMLMark?)
    case mapping([(key: YAMLNode, value: YAMLNode)], YAMLMark?)
    case sequence([YAMLNode], YAMLMark?)

    var mark: YAMLMark? {
        switch self {
        case .scalar(_, let mark), .mapping(_, let mark), .sequence(_, let mark): mark
        }
    }
}

/// Why libyaml, or the composing of its events, refused a text.
enum YAMLParseError: Error {
    /// libyaml's scanner or parser, or the composer: "while parsing a block mapping" (the context, if any), and the
    /// problem at `mark`.
    case syntax(context: String?, problem: String, mark: YAMLMark)
    /// A character libyaml does not read (control characters): its problem, at a byte offset of the UTF-8 text.
    case reader(problem: String, offset: Int, value: Int32)
    /// A mapping holding the same key twice (the same text, resolved to the same YAML tag), at its second writing.
    case duplicateKey(String, mark: YAMLMark)
    /// A document holding more than `YAMLDocument.maximumExpansion` nodes, aliases expanded, at the node that passed
    /// it: a "billion laughs" would otherwise cost whoever walks the tree. `byAliases` when the nodes written are
    /// within the cap and only the aliases' expansion passed it.
    case tooManyNodes(mark: YAMLMark, byAliases: Bool)
    /// Lists and mappings opened more than `YAMLDocument.maximumDepth` deep, the last at `mark`.
    case tooDeep(mark: YAMLMark)
    case memory
}

/// The one document of a YAML text, read through libyaml's event API.
enum YAMLDocument {
    /// The nesting Yams' copy of libyaml allowed (its MAX_NESTING_LEVEL): block indentation levels and flow levels
    /// together, as its scanner counts them. The libyaml of Debian 12 (0.2.5) has no limit; deeper files would overflow
    /// the stack of the recursion that builds, and frees, the tree.
    static let maximumNesting = 1000
    /// A second guard, on the tree itself, for what the first does not count (a list written without indentation as
    /// the value of a mapping): with both, a tree is at most about 2 000 deep.
    static let maximumDepth = 2048
    /// Nodes (scalars, lists and mappings) a document may hold with its aliases expanded: far beyond any policy file,
    /// far below a billion laughs.
    static let maximumExpansion = 100_000

    /// The root node of the text's single document; `nil` for a text without one (empty, or only comments).
    ///
    /// What is refused, and how, follows Yams' `compose(yaml:)`, which pinctl used before: a second document, an
    /// alias to an anchor not yet complete, a key written twice in a mapping, nesting past Yams' limit; and, unlike
    /// Yams, aliases that expand the document past `maximumExpansion` nodes.
    static func root(of text: String) throws(YAMLParseError) -> YAMLNode? {
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
private struct Event {
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
private final class EventReader {
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

/// Builds nodes from events as Yams' parser did, an alias becoming its anchor's node (shared, not copied), but
/// refusing deep nesting and aliases that expand past `maximumExpansion` nodes.
private struct Composer {
    let events: EventReader
    /// Anchors defined so far, with the nodes each stands for; a collection's only once it is complete (Yams
    /// registered them then).
    var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    /// Nodes of the document so far, aliases expanded.
    var expanded = 0
    /// Nodes of the document so far as written, an alias counting as one.
    var written = 0

    init(events: EventReader) { self.events = events }

    /// The node that `event` starts, and how many nodes it holds with its aliases expanded.
    mutating func node(from event: Event, depth: Int) throws(YAMLParseError) -> (YAMLNode, size: Int) {
        switch event.type {
        case YAML_ALIAS_EVENT:
            guard let (node, size) = anchors[event.text] else {
                throw .syntax(context: nil, problem: "found undefined alias", mark: event.mark)
            }
            try count(size, at: event.mark)
            return (node, size)
        case YAML_SCALAR_EVENT:
            try count(1, at: event.mark)
            let node = YAMLNode.scalar(event.text, event.mark)
            if let anchor = event.anchor { anchors[anchor] = (node, 1) }
            return (node, 1)
        case YAML_SEQUENCE_START_EVENT:
            guard depth <= YAMLDocument.maximumDepth else { throw .tooDeep(mark: event.mark) }
            try count(1, at: event.mark)
            var elements: [YAMLNode] = []
            var size = 1
            var next = try events.next()
            while next.type != YAML_SEQUENCE_END_EVENT {
                let (element, elementSize) = try node(from: next, depth: depth + 1)
                elements.append(element)
                size += elementSize
                next = try events.next()
            }
            let node = YAMLNode.sequence(elements, event.mark)
            if let anchor = event.anchor { anchors[anchor] = (node, size) }
            return (node, size)
        case YAML_MAPPING_START_EVENT:
            guard depth <= YAMLDocument.maximumDepth else { throw .tooDeep(mark: event.mark) }
            try count(1, at: event.mark)
            var members: [(key: YAMLNode, value: YAMLNode)] = []
            var keys: [Event] = []
            var size = 1
            var next = try events.next()
            while next.type != YAML_MAPPING_END_EVENT {
                let (key, keySize) = try node(from: next, depth: depth + 1)
                let (value, valueSize) = try node(from: try events.next(), depth: depth + 1)
                members.append((key, value))
                size += keySize + valueSize
                keys.append(next)
                next = try events.next()
            }
            try YAMLTag.checkDuplicates(keys)
            let node = YAMLNode.mapping(members, event.mark)
            if let anchor = event.anchor { anchors[anchor] = (node, size) }
            return (node, size)
        default:
            // libyaml's parser only ever hands a node's first event here.
            preconditionFailure("libyaml: event \(event.type) where a node starts")
        }
    }

    /// Counts one node as written, standing for `nodes` once expanded (more for an alias).
    private mutating func count(_ nodes: Int, at mark: YAMLMark) throws(YAMLParseError) {
        expanded += nodes
        written += 1
        guard expanded <= YAMLDocument.maximumExpansion else {
            throw .tooManyNodes(mark: mark, byAliases: written <= YAMLDocument.maximumExpansion)
        }
    }
}

/// The YAML tags Yams gave scalars (its default resolver), only to tell which keys of a mapping it saw as the same.
private enum YAMLTag {
    static let str = "tag:yaml.org,2002:str"

    /// Yams refused two keys of equal text and tag, comparing lists and mappings whole; pinctl refuses keys that are
    /// not text anyway, so only scalar keys are compared here.
    static func checkDuplicates(_ keys: [Event]) throws(YAMLParseError) {
        var seen: [String: [Event]] = [:]
        for key in keys where key.type == YAML_SCALAR_EVENT {
            let earlier = seen[key.text, default: []]
            if earlier.contains(where: { tag(of: $0) == tag(of: key) }) { throw .duplicateKey(key.text, mark: key.mark) }
            seen[key.text, default: []].append(key)
        }
    }

    private static func tag(of key: Event) -> String {
        key.tag ?? resolved(key.text)
    }

    /// The tag Yams' default resolver gives a plain scalar: the first of its rules whose pattern matches, else str.
    private static func resolved(_ text: String) -> String {
        for (name, pattern) in rules {
            // Yams matched with NSRegularExpression, which sees Unicode scalars, not characters.
            guard let regex = try? Regex(pattern).matchingSemantics(.unicodeScalar) else { continue }
            if (try? regex.firstMatch(in: text)) != nil { return "tag:yaml.org,2002:" + name }
        }
        return str
    }

    private static let rules: [(String, String)] = [
        ("bool", "^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"),
        ("int", "^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
            + "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$"),
        ("float", "^(?:[-+]?(?:[0-9][0-9_]*)(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9_]+(?:[eE][-+][0-9]+)?"
            + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"),
        ("merge", "^(?:<<)$"),
        ("null", "^(?:~|null|Null|NULL|)$"),
        ("timestamp", "^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
            + "(?:[Tt]|[ \\t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\\.[0-9]*)?"
            + "(?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$"),
        ("value", "^(?:=)$"),
    ]
}
