internal import CLibYAML

/// Builds nodes from events as Yams' parser did, an alias becoming its anchor's node (shared, not copied), but
/// refusing deep nesting and aliases that expand past `maximumExpansion` nodes.
struct Composer {
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
enum YAMLTag {
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
