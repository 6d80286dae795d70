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

    public static func parse(_ document: String) throws -> ElementTree {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("document.xml", text: document)
            // json.dumps escapes every non-ASCII character, so the output survives the trip through a String.
            let result = try Subprocess.run("python3", ["-c", """
                import json, sys, xml.etree.ElementTree as ET
                def tree(e):
                    return {"tag": e.tag, "attributes": e.attrib, "text": "".join(e.itertext()),
                            "children": [tree(c) for c in e]}
                print(json.dumps(tree(ET.parse(sys.argv[1]).getroot())))
                """, file])
            guard result.status == 0 else { throw Malformed(description: "not well-formed XML: \(result.stderr)") }
            return try JSONDecoder().decode(ElementTree.self, from: Data(result.stdout.utf8))
        }
    }
}
