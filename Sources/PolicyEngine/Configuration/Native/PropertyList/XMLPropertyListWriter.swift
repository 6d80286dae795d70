import FoundationEssentials
import XMLTree

/// Writes a dictionary as an XML property list (FoundationEssentials' encoder), with comments that say where it came
/// from and what it dropped.
enum XMLPropertyListWriter {
    /// The XML plist of `root` with `comments` before its `<plist>` element.
    static func write(_ root: [String: PropertyListValue], comments: [String]) throws(ExportError) -> [UInt8] {
        // XML 1.0 has no way to write most control characters, even escaped: the rule of every XML export.
        if let place = unwritable(.dictionary(root), at: "") {
            throw ExportError("\(place) holds a control character, which an XML property list cannot hold")
        }
        let data: Data
        do {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .xml
            data = try encoder.encode(PropertyListValue.dictionary(root))
        } catch {
            throw ExportError("the property list could not be written: \(error)")
        }
        return commented(String(decoding: data, as: UTF8.self), comments)
    }

    /// The key path of the first key or string that XML cannot hold, nil when there is none.
    private static func unwritable(_ value: PropertyListValue, at path: String) -> String? {
        switch value {
        case .dictionary(let members):
            for key in members.keys.sorted() {
                let place = path.isEmpty ? key : "\(path).\(key)"
                if XMLCharacters.firstUnwritable(in: key) != nil { return "the key '\(place)'" }
                if let member = members[key], let found = unwritable(member, at: place) { return found }
            }
            return nil
        case .array(let elements):
            return elements.indices.lazy.compactMap { unwritable(elements[$0], at: "\(path)[\($0)]") }.first
        case .string(let text):
            return XMLCharacters.firstUnwritable(in: text) != nil ? "the value of \(path)" : nil
        default:
            return nil
        }
    }

    /// The plist with `comments` before its `<plist>` element. A comment may not hold "--" (an xn-- label would) nor
    /// control characters, so those are spelled otherwise.
    static func commented(_ plist: String, _ comments: [String]) -> [UInt8] {
        let lines = comments.map { comment in
            var text = String.UnicodeScalarView()
            for scalar in comment.unicodeScalars {
                text.append(scalar.value < 0x20 ? " " : scalar == "-" && text.last == "-" ? "\u{2010}" : scalar)
            }
            return "<!-- \(String(text)) -->\n"
        }.joined()
        guard let element = plist.firstRange(of: "<plist") else { return Array((lines + plist).utf8) }
        return Array((plist[..<element.lowerBound] + lines + plist[element.lowerBound...]).utf8)
    }
}
