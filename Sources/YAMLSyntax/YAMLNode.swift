/// Where a node or an error is in the text, counted from 1; a column is a character (a Unicode scalar).
public struct YAMLMark: Equatable, Sendable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) { (self.line, self.column) = (line, column) }
}

/// A node of a YAML document: scalars as the text written (never resolved to numbers or booleans). An alias is its
/// anchor's node, marked where the anchor is, as Yams composed it.
public indirect enum YAMLNode {
    /// `nil` mark: only the empty mapping that stands for an empty file.
    case scalar(String, YAMLMark?)
    case mapping([(key: YAMLNode, value: YAMLNode)], YAMLMark?)
    case sequence([YAMLNode], YAMLMark?)

    public var mark: YAMLMark? {
        switch self {
        case .scalar(_, let mark), .mapping(_, let mark), .sequence(_, let mark): mark
        }
    }
}

/// Why libyaml, or the composing of its events, refused a text.
public enum YAMLParseError: Error {
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
