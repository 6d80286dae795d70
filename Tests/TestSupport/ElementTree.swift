import Foundation

/// An XML document as Python's `xml.etree` reads it, for tests that check pinctl's XML output (JUnit).
/// Not FoundationXML: its `XMLDocument` keeps its libxml2 tree alive through reference cycles, which LeakSanitizer
/// reports on every test that parses, and not pinctl's own libxml2 reader, which is code under test.
public struct ElementTree: Decodable, Sendable {
    public let tag: String
    public let attributes: [String: String]
    /// All the text inside the element, its children's included (`itertext`).
    public let text: String
    public let children: [ElementTree]

    public func attribute(_ name: String) -> String? { attributes[name] }
    public func elements(_ tag: String) -> [ElementTree] { children.filter { $0.tag == tag } }

    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Every element below this one, in document order, this one first.
    public var descendants: [ElementTree] { [self] + children.flatMap(\.descendants) }

    /// The element's classes (`class="cell rejected"`).
    public var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }

    /// An HTML document as a browser serialises its DOM (every element but the void ones closed), read by Python's
    /// html.parser into the same tree.
    public static func parseHTML(_ document: String) throws -> ElementTree {
        try python(document, reader: """
            import json, sys, html.parser
            VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                    "wbr"}
            class Reader(html.parser.HTMLParser):
                def __init__(self):
                    super().__init__(convert_charrefs=True)
                    self.stack = [{"tag": "#document", "attributes": {}, "parts": [], "children": []}]
                def handle_starttag(self, tag, attrs):
                    element = {"tag": tag, "attributes": {k: v or "" for k, v in attrs}, "parts": [], "children": []}
                    self.stack[-1]["children"].append(element)
                    self.stack[-1]["parts"].append(element)
                    if tag not in VOID:
                        self.stack.append(element)
                def handle_endtag(self, tag):
                    if tag in VOID:
                        return
                    if self.stack[-1]["tag"] != tag:
                        raise ValueError("</%s> closes <%s>" % (tag, self.stack[-1]["tag"]))
                    self.stack.pop()
                def handle_data(self, data):
                    self.stack[-1]["parts"].append(data)
            def tree(e):
                text = "".join(p if isinstance(p, str) else tree(p)["text"] for p in e["parts"])
                return {"tag": e["tag"], "attributes": e["attributes"], "text": text,
                        "children": [tree(c) for c in e["children"]]}
            reader = Reader()
            reader.feed(open(sys.argv[1], encoding="utf-8").read())
            reader.close()
            print(json.dumps(tree(reader.stack[0])))
            """)
    }

    public static func parse(_ document: String) throws -> ElementTree {
        try python(document, reader: """
            import json, sys, xml.etree.ElementTree as ET
            def tree(e):
                return {"tag": e.tag, "attributes": e.attrib, "text": "".join(e.itertext()),
                        "children": [tree(c) for c in e]}
            print(json.dumps(tree(ET.parse(sys.argv[1]).getroot())))
            """)
    }

    private static func python(_ document: String, reader: String) throws -> ElementTree {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("document.xml", text: document)
            // json.dumps escapes every non-ASCII character, so the output survives the trip through a String.
            let result = try Subprocess.run("python3", ["-c", reader, file])
            guard result.status == 0 else { throw Malformed(description: "not well-formed: \(result.stderr)") }
            return try JSONDecoder().decode(ElementTree.self, from: Data(result.stdout.utf8))
        }
    }
}
