import FoundationEssentials
import XMLTree

/// An XML property list (Apple's PropertyList-1.0 DTD) read through libxml2, so a mistake is reported at its line.
/// The grammar is CoreFoundation's: `<plist>` holding one value; `<dict>` alternating `<key>` and a value;
/// `<integer>` decimal or `0x` hexadecimal; `<date>` `yyyy-MM-ddTHH:mm:ssZ`; `<data>` base64 with blanks anywhere.
enum XMLPropertyListReader {
    static func read(_ bytes: [UInt8]) throws(XMLParseError) -> PropertyListValue {
        let root = try XMLDocumentReader.parse(bytes, externalDoctype: true)
        guard root.name == "plist" else {
            throw XMLParseError(line: root.line, message: "the root element is <\(root.name)>, not <plist>")
        }
        guard root.children.count == 1, let value = root.children.first else {
            throw XMLParseError(line: root.line, message: "<plist> holds \(root.children.count) values, not one")
        }
        return try self.value(value)
    }

    private static func value(_ element: XMLElement) throws(XMLParseError) -> PropertyListValue {
        switch element.name {
        case "dict":
            return .dictionary(try dictionary(element))
        case "array":
            var elements: [PropertyListValue] = []
            for child in element.children { elements.append(try value(child)) }
            return .array(elements)
        case "string":
            return .string(try text(element))
        case "true", "false":
            guard try text(element).allSatisfy(\.isWhitespace) else {
                throw XMLParseError(line: element.line, message: "<\(element.name)/> holds text")
            }
            return .bool(element.name == "true")
        case "integer":
            return .integer(try integer(element))
        case "real":
            let written = try text(element).trimming(\.isBlankOrNewline)
            guard let number = Double(written) else {
                throw XMLParseError(line: element.line, message: "<real> holds '\(written)', not a number")
            }
            return .real(number)
        case "date":
            let written = try text(element).trimming(\.isBlankOrNewline)
            guard case .success(let date) = Timestamp.parse(written), written.hasSuffix("Z") else {
                throw XMLParseError(line: element.line, message: "<date> holds '\(written)', not yyyy-MM-ddTHH:mm:ssZ")
            }
            return .date(date)
        case "data":
            let written = try text(element).filter { !$0.isWhitespace }
            guard let bytes = Data(base64Encoded: written) else {
                throw XMLParseError(line: element.line, message: "<data> holds something other than base64")
            }
            return .data(bytes)
        default:
            throw XMLParseError(line: element.line, message: "<\(element.name)> is no property list element")
        }
    }

    private static func dictionary(_ element: XMLElement) throws(XMLParseError) -> [String: PropertyListValue] {
        var members: [String: PropertyListValue] = [:]
        var children = element.children[...]
        while let key = children.popFirst() {
            guard key.name == "key" else {
                throw XMLParseError(line: key.line, message: "<\(key.name)> inside <dict> where a <key> belongs")
            }
            let name = try text(key)
            guard let value = children.popFirst() else {
                throw XMLParseError(line: key.line, message: "the key '\(name)' has no value")
            }
            // CoreFoundation keeps the last of a repeated key; an Info.plist that repeats one is a mistake to show.
            guard members[name] == nil else {
                throw XMLParseError(line: key.line, message: "the key '\(name)' is given twice in this <dict>")
            }
            members[name] = try self.value(value)
        }
        return members
    }

    /// The text of an element that may hold nothing else.
    private static func text(_ element: XMLElement) throws(XMLParseError) -> String {
        if let child = element.children.first {
            throw XMLParseError(line: child.line, message: "<\(element.name)> holds an element <\(child.name)>")
        }
        return element.text
    }

    private static func integer(_ element: XMLElement) throws(XMLParseError) -> Int64 {
        let written = try text(element).trimming(\.isBlankOrNewline)
        // The sign, then decimal or 0x hexadecimal digits; Int64(_:radix:) checks the digits and the range.
        let sign = written.first == "-" || written.first == "+" ? String(written.prefix(1)) : ""
        var digits = written.dropFirst(sign.count)
        let hexadecimal = digits.hasPrefix("0x") || digits.hasPrefix("0X")
        if hexadecimal { digits = digits.dropFirst(2) }
        guard let first = digits.first, first != "-", first != "+",
              let value = Int64(sign + digits, radix: hexadecimal ? 16 : 10)
        else {
            throw XMLParseError(line: element.line, message: "<integer> holds '\(written)', not a whole number that fits 64 bits")
        }
        return value
    }
}
