import Artifacts
import XMLTree

extension BinaryXMLElement {
    /// The element as the XML text reader's tree: each attribute's value as the device reads its type (a boolean
    /// `true`/`false`, a number in decimal, a reference `@type/name` through `resources`, or `@0x7f…` when the table
    /// does not name it), qualified by `android:` in Android's namespace; the text and line numbers aapt kept.
    func xmlElement(resources: ResourceTable) -> XMLElement {
        let attributes = attributes.map { attribute -> XMLAttribute in
            let value = switch attribute.value {
            case .string(let text): text
            case .boolean(let flag): flag ? "true" : "false"
            case .integer(let number): String(number)
            case .reference(let id):
                resources.resource(id).map { "@\($0.type)/\($0.name)" } ?? "@0x" + String(id, radix: 16)
            case .other(let type, let data): "(type 0x\(String(type, radix: 16))) 0x\(String(data, radix: 16))"
            }
            let prefix = attribute.namespace == BinaryXML.androidNamespace ? "android:"
                : attribute.namespace.isEmpty ? "" : attribute.namespace + ":"
            return XMLAttribute(name: prefix + attribute.name, value: value, line: line)
        }
        return XMLElement(name: name, attributes: attributes,
                          children: children.map { $0.xmlElement(resources: resources) }, text: text, line: line)
    }
}
