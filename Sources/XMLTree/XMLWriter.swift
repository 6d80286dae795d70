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
public enum XMLDocumentWriter {
    /// The document with `root` as its element, preceded by `comments`. `XMLLibrary.open()` must have succeeded.
    public static func serialize(_ root: XMLOutputElement, comments: [String] = []) -> [UInt8] {
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
        var safe = ""
        for character in text {
            if character == "-", safe.last == "-" { safe.append(" ") }
            safe.append(character)
        }
        return safe.last == "-" ? safe + " " : safe
    }
}
