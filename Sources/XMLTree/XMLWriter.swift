internal import CLibXML2

/// An element to write: its name, attributes in order, and children (elements, text, comments).
public struct XMLOutputElement: Sendable {
    public enum Child: Sendable {
        case element(XMLOutputElement)
        case text(String)
        case comment(String)
    }

    public let name: String
    public let attributes: [(name: String, value: String)]
    public let children: [Child]

    public init(_ name: String, attributes: [(name: String, value: String)] = [], children: [Child] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }
}

/// Writes XML with libxml2's tree API (escaping and encoding are libxml2's), indented, UTF-8, with a declaration.
/// What becomes of a character XML cannot hold (`XMLCharacters`) is each writer's choice, made by the entry point:
/// a report shows it as a visible escape, a configuration refuses it.
public enum XMLDocumentWriter {
    /// A report (JUnit): every text, attribute and comment with the characters XML cannot hold shown as visible escapes
    /// (`\x1B`), so the document always parses and nothing is dropped silently. `XMLLibrary.open()` must have
    /// succeeded.
    public static func report(_ root: XMLOutputElement, comments: [String] = []) -> [UInt8] {
        serialize(escaped(root), comments: comments.map(XMLCharacters.visible))
    }

    /// A configuration an app will read: refused, naming the place, when a value holds a character XML cannot hold,
    /// since writing it otherwise would silently configure another host or pin. `XMLLibrary.open()` must have
    /// succeeded.
    public static func configuration(_ root: XMLOutputElement, comments: [String] = []) throws(XMLUnwritableValue)
        -> [UInt8]
    {
        try check(root, path: "/" + root.name)
        for (index, comment) in comments.enumerated() {
            try check(comment, at: "comment \(index + 1)")
        }
        return serialize(root, comments: comments)
    }

    private static func escaped(_ element: XMLOutputElement) -> XMLOutputElement {
        let attributes = element.attributes.map { ($0.name, XMLCharacters.visible($0.value)) }
        let children = element.children.map { child -> XMLOutputElement.Child in
            switch child {
            case .element(let inner): .element(escaped(inner))
            case .text(let text): .text(XMLCharacters.visible(text))
            case .comment(let text): .comment(XMLCharacters.visible(text))
            }
        }
        return XMLOutputElement(element.name, attributes: attributes, children: children)
    }

    private static func check(_ element: XMLOutputElement, path: String) throws(XMLUnwritableValue) {
        for (name, value) in element.attributes { try check(value, at: path + "/@" + name) }
        // XPath's step `name[n]`, counted among siblings of that name, where there are several.
        var total: [String: Int] = [:]
        for case .element(let inner) in element.children { total[inner.name, default: 0] += 1 }
        var seen: [String: Int] = [:]
        for child in element.children {
            switch child {
            case .element(let inner):
                seen[inner.name, default: 0] += 1
                let position = seen[inner.name, default: 0]
                let step = total[inner.name, default: 0] > 1 ? "\(inner.name)[\(position)]" : inner.name
                try check(inner, path: path + "/" + step)
            case .text(let text): try check(text, at: path)
            case .comment(let text): try check(text, at: path + "/comment()")
            }
        }
    }

    private static func check(_ value: String, at place: String) throws(XMLUnwritableValue) {
        guard let character = XMLCharacters.firstUnwritable(in: value) else { return }
        throw XMLUnwritableValue(place: place, value: XMLCharacters.visible(value), character: character)
    }

    private static func serialize(_ root: XMLOutputElement, comments: [String]) -> [UInt8] {
        guard let document = xmlNewDoc("1.0") else { fatalError("xmlNewDoc: out of memory") }
        defer { xmlFreeDoc(document) }
        for comment in comments {
            // The comment belongs to the document once added as its child.
            guard let node = xmlNewDocComment(document, commentText(comment)) else {
                fatalError("xmlNewDocComment: out of memory")
            }
            xmlAddChild(UnsafeMutableRawPointer(document).assumingMemoryBound(to: xmlNode.self), node)
        }
        let element = node(root, in: document)
        xmlAddChild(UnsafeMutableRawPointer(document).assumingMemoryBound(to: xmlNode.self), element)
        var memory: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        xmlDocDumpFormatMemoryEnc(document, &memory, &size, "UTF-8", 1)
        guard let memory else { fatalError("xmlDocDumpFormatMemoryEnc: out of memory") }
        defer { CLibXML2Free(memory) }
        return Array(UnsafeBufferPointer(start: memory, count: Int(size)))
    }

    private static func node(_ element: XMLOutputElement, in document: xmlDocPtr) -> xmlNodePtr {
        guard let node = xmlNewDocNode(document, nil, element.name, nil) else { fatalError("xmlNewDocNode: out of memory") }
        for (name, value) in element.attributes {
            // xmlNewProp copies and escapes the value.
            _ = xmlNewProp(node, name, value)
        }
        for child in element.children {
            switch child {
            case .element(let inner):
                xmlAddChild(node, self.node(inner, in: document))
            case .text(let text):
                // xmlNewDocText copies the text; serialization escapes it.
                xmlAddChild(node, xmlNewDocText(document, text))
            case .comment(let text):
                xmlAddChild(node, xmlNewDocComment(document, commentText(text)))
            }
        }
        return node
    }

    /// A comment may hold no "--" and may not end with "-" (XML 1.0 §2.5): libxml2 writes it verbatim, and a name
    /// such as `xn--bcher-kva.com` would make the document unreadable.
    static func commentText(_ text: String) -> String {
        // By scalar, not by Character: a combining mark after a `-` makes one Character of the two, which `== "-"`
        // would not see, and libxml2 would still read `--` (found by FuzzOutputEscaping).
        var safe = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "-", safe.last == "-" { safe.append(" ") }
            safe.append(scalar)
        }
        if safe.last == "-" { safe.append(" ") }
        return String(safe)
    }
}
