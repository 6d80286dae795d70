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
    /// The comments between the previous element (or the parent's start) and this one; for the root, those of the
    /// document before it. Kept so that a configuration written back keeps its authors' notes.
    public internal(set) var leadingComments: [String] = []
    /// The comments after the last child element (for the root, also those of the document after it).
    public internal(set) var trailingComments: [String] = []
    /// The namespaces this element declares (`xmlns:tools="…"`), as attributes would write them.
    public internal(set) var namespaceDeclarations: [(name: String, value: String)] = []

    /// The value of the attribute named `name` (prefix included, e.g. `android:name`), if present.
    public func attribute(_ name: String) -> XMLAttribute? { attributes.first { $0.name == name } }

    /// An element built from another form than XML text (Android's binary XML), with no comments.
    public init(name: String, attributes: [XMLAttribute], children: [XMLElement], text: String, line: Int) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
    }
}

/// An attribute as written: its qualified name and value.
public struct XMLAttribute: Sendable {
    public let name: String
    public let value: String
    public let line: Int

    public init(name: String, value: String, line: Int) {
        self.name = name
        self.value = value
        self.line = line
    }
}

/// Why bytes are not a well-formed XML document.
public struct XMLParseError: Error, Sendable, CustomStringConvertible {
    public let line: Int
    public let message: String

    public var description: String { line > 0 ? "line \(line): \(message)" : message }

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }
}

/// Parses XML with libxml2: no network, no DTD loading, no entity substitution; a document with a DOCTYPE is
/// refused (entity tricks live there), except, with `externalDoctype`, one that only names an external DTD, which is
/// never loaded: every property list starts with `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "…">`.
public enum XMLDocumentReader {
    public static func parse(_ bytes: [UInt8], externalDoctype: Bool = false) throws(XMLParseError) -> XMLElement {
        do {
            try XMLLibrary.open()
        } catch {
            throw XMLParseError(line: 0, message: error.description)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue)
        guard let context = xmlNewParserCtxt() else { fatalError("xmlNewParserCtxt: out of memory") }
        defer { xmlFreeParserCtxt(context) }
        // libxml2 goes on after a well-formedness error, and its "last error" is then a later consequence ("Premature
        // end of data" at the end of the file): the first error, where the document went wrong, is recorded here.
        let recorder = FirstError()
        // The SAX handler's `_private`: xmlCtxtReadMemory resets the context's own fields, not its handler.
        context.pointee.sax.pointee._private = Unmanaged.passUnretained(recorder).toOpaque()
        context.pointee.sax.pointee.serror = recordFirstError
        // A DOCTYPE is refused where it stands, before libxml2 reads what it declares: an entity that expands a
        // billion times would otherwise be refused as libxml2's "entity reference loop", at line 1.
        context.pointee.sax.pointee.entityDecl = refuseEntityDeclaration
        if !externalDoctype { context.pointee.sax.pointee.internalSubset = refuseDoctype }
        // libxml2 reports bytes that are not in the declared encoding without its parser context, to the thread's
        // global handler, whose default prints to stderr; the parser's own error then says only "Premature end of
        // data". The conversion's report, which names the bytes, is recorded instead while this thread parses.
        xmlSetStructuredErrorFunc(UnsafeMutableRawPointer(context), recordFirstError)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let parsed = withExtendedLifetime(recorder) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    xmlCtxtReadMemory(context, chars.baseAddress, Int32(clamping: chars.count), "config.xml", nil,
                                      options)
                }
            }
        }
        if let first = recorder.error {
            if let parsed { xmlFreeDoc(parsed) }
            throw first
        }
        guard let document = parsed else { throw XMLParseError(line: 0, message: "not well-formed XML") }
        defer { xmlFreeDoc(document) }
        if let subset = document.pointee.intSubset, !externalDoctype || subset.pointee.children != nil {
            throw XMLParseError(line: Int(xmlGetLineNo(UnsafeMutableRawPointer(subset).assumingMemoryBound(to: xmlNode.self))),
                                message: externalDoctype ? "a DOCTYPE that declares anything itself is not accepted"
                                    : "a DOCTYPE declaration is not accepted")
        }
        guard let root = xmlDocGetRootElement(document) else {
            throw XMLParseError(line: 0, message: "no root element")
        }
        var tree = element(root)
        var node = document.pointee.children
        var afterRoot = false
        while let current = node {
            if current == root {
                afterRoot = true
            } else if let comment = comment(current) {
                if afterRoot { tree.trailingComments.append(comment) } else { tree.leadingComments.append(comment) }
            }
            node = current.pointee.next
        }
        return tree
    }

    private static func comment(_ node: UnsafeMutablePointer<xmlNode>) -> String? {
        guard node.pointee.type == XML_COMMENT_NODE else { return nil }
        return node.pointee.content.map { String(cString: $0) } ?? ""
    }

    private static func element(_ node: UnsafeMutablePointer<xmlNode>) -> XMLElement {
        var attributes: [XMLAttribute] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            // xmlNodeListGetString allocates: freed with xmlFree.
            let raw = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1)
            let value = raw.map { String(cString: $0) } ?? ""
            if let raw { CLibXML2Free(raw) }
            attributes.append(XMLAttribute(name: qualifiedName(current.pointee.name, current.pointee.ns),
                                           value: value, line: Int(xmlGetLineNo(node))))
            attribute = current.pointee.next
        }
        var children: [XMLElement] = []
        var text = ""
        var pending: [String] = []
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                var inner = element(current)
                inner.leadingComments = pending
                pending = []
                children.append(inner)
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { text += String(cString: content) }
            case XML_COMMENT_NODE:
                if let comment = comment(current) { pending.append(comment) }
            default:
                break  // processing instructions
            }
            child = current.pointee.next
        }
        var declarations: [(name: String, value: String)] = []
        var namespace = node.pointee.nsDef
        while let current = namespace {
            let prefix = current.pointee.prefix.map { "xmlns:" + String(cString: $0) } ?? "xmlns"
            declarations.append((prefix, current.pointee.href.map { String(cString: $0) } ?? ""))
            namespace = current.pointee.next
        }
        var tree = XMLElement(name: qualifiedName(node.pointee.name, node.pointee.ns), attributes: attributes,
                              children: children, text: text, line: Int(xmlGetLineNo(node)))
        tree.trailingComments = pending
        tree.namespaceDeclarations = declarations
        return tree
    }

    private static func qualifiedName(_ name: UnsafePointer<xmlChar>?, _ namespace: UnsafeMutablePointer<xmlNs>?)
        -> String
    {
        let local = name.map { String(cString: $0) } ?? ""
        guard let prefix = namespace?.pointee.prefix else { return local }
        return String(cString: prefix) + ":" + local
    }
}

/// The first error libxml2 reports while parsing one document.
private final class FirstError {
    var error: XMLParseError?

    func record(_ error: xmlError) {
        guard self.error == nil else { return }
        var text = Substring(error.message.map { String(cString: $0) } ?? "not well-formed XML")
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        self.error = XMLParseError(line: Int(error.line), message: String(text))
    }
}

/// The parser context's structured error handler, and the thread's global one while it parses: `userData` is the
/// context itself (libxml2's DOM builder sets it so; the global one is given it), whose SAX handler's `_private` holds
/// the recorder. Warnings are not errors. A report without a line (a failed character conversion) takes the line the
/// parser is reading.
private let recordFirstError: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<xmlError>?) -> Void = {
    data, error in
    guard let data, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
    let context = data.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let recorder = context.pointee.sax?.pointee._private else { return }
    var reported = error.pointee
    if reported.line <= 0 { reported.line = context.pointee.input?.pointee.line ?? 0 }
    Unmanaged<FirstError>.fromOpaque(recorder).takeUnretainedValue().record(reported)
}

/// Records `message` at the parser's current line as the first error, and stops the parser.
private func refuse(_ data: UnsafeMutableRawPointer?, _ message: String) {
    guard let data else { return }
    let context = data.assumingMemoryBound(to: xmlParserCtxt.self)
    if let recorder = context.pointee.sax?.pointee._private {
        let first = Unmanaged<FirstError>.fromOpaque(recorder).takeUnretainedValue()
        if first.error == nil {
            first.error = XMLParseError(line: Int(context.pointee.input?.pointee.line ?? 0), message: message)
        }
    }
    xmlStopParser(context)
}

/// A document whose DOCTYPE declares an entity (`<!ENTITY …>`): refused in every reader.
private let refuseEntityDeclaration: @convention(c) (
    UnsafeMutableRawPointer?, UnsafePointer<xmlChar>?, Int32, UnsafePointer<xmlChar>?, UnsafePointer<xmlChar>?,
    UnsafeMutablePointer<xmlChar>?
) -> Void = { data, _, _, _, _, _ in
    refuse(data, "a DOCTYPE that declares anything itself is not accepted")
}

/// Any DOCTYPE, where the reader accepts none (`externalDoctype` false).
private let refuseDoctype: @convention(c) (
    UnsafeMutableRawPointer?, UnsafePointer<xmlChar>?, UnsafePointer<xmlChar>?, UnsafePointer<xmlChar>?
) -> Void = { data, _, _, _ in
    refuse(data, "a DOCTYPE declaration is not accepted")
}

