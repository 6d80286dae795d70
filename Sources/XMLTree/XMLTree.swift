internal import CLibXML2

/// One element of an XML document, read whole into values: its name, attributes, children and text, with the line
/// each starts on, so a configuration error can name the place.
public struct XMLElement: Sendable {
    public let name: String
    public let attributes: [XMLAttribute]
    public let children: [XMLElement]
    /// The text directly inside the element (CDATA included), concatenated, untrimmed.
    public let text: String
    public let line: Int

    /// The value of the attribute named `name` (prefix included, e.g. `android:name`), if present.
    public func attribute(_ name: String) -> XMLAttribute? { attributes.first { $0.name == name } }
}

/// An attribute as written: its qualified name and value.
public struct XMLAttribute: Sendable {
    public let name: String
    public let value: String
    public let line: Int
}

/// Why bytes are not a well-formed XML document.
public struct XMLParseError: Error, Sendable, CustomStringConvertible {
    public let line: Int
    public let message: String

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}

/// Parses XML with libxml2: no network, no DTD loading, no entity substitution; a document with a DOCTYPE is
/// refused (no configuration pinctl reads has one, and entity tricks live there).
public enum XMLDocumentReader {
    public static func parse(_ bytes: [UInt8]) throws(XMLParseError) -> XMLElement {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue)
        xmlResetLastError()
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xmlReadMemory(chars.baseAddress, Int32(clamping: chars.count), "config.xml", nil, options)
            }
        }
        guard let document else { throw lastError(fallback: "not well-formed XML") }
        defer { xmlFreeDoc(document) }
        if let subset = document.pointee.intSubset {
            throw XMLParseError(line: Int(xmlGetLineNo(UnsafeMutableRawPointer(subset).assumingMemoryBound(to: xmlNode.self))),
                                message: "a DOCTYPE declaration is not accepted")
        }
        guard let root = xmlDocGetRootElement(document) else {
            throw XMLParseError(line: 0, message: "no root element")
        }
        return element(root)
    }

    private static func element(_ node: UnsafeMutablePointer<xmlNode>) -> XMLElement {
        var attributes: [XMLAttribute] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            // xmlNodeListGetString allocates: freed with xmlFree.
            let raw = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1)
            let value = raw.map { String(cString: $0) } ?? ""
            if let raw { CLibXML2Shim_xmlFree(raw) }
            attributes.append(XMLAttribute(name: qualifiedName(current.pointee.name, current.pointee.ns),
                                           value: value, line: Int(xmlGetLineNo(node))))
            attribute = current.pointee.next
        }
        var children: [XMLElement] = []
        var text = ""
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                children.append(element(current))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { text += String(cString: content) }
            default:
                break  // comments, processing instructions
            }
            child = current.pointee.next
        }
        return XMLElement(name: qualifiedName(node.pointee.name, node.pointee.ns), attributes: attributes,
                          children: children, text: text, line: Int(xmlGetLineNo(node)))
    }

    private static func qualifiedName(_ name: UnsafePointer<xmlChar>?, _ namespace: UnsafeMutablePointer<xmlNs>?)
        -> String
    {
        let local = name.map { String(cString: $0) } ?? ""
        guard let prefix = namespace?.pointee.prefix else { return local }
        return String(cString: prefix) + ":" + local
    }

    private static func lastError(fallback: String) -> XMLParseError {
        // get0: the last error belongs to libxml2's thread-local state.
        guard let error = xmlGetLastError(), let message = error.pointee.message else {
            return XMLParseError(line: 0, message: fallback)
        }
        var text = Substring(String(cString: message))
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return XMLParseError(line: Int(error.pointee.line), message: String(text))
    }
}
