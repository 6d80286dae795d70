import FoundationEssentials

/// A configuration file read as a dictionary of property-list values, whichever of the forms apps ship it in.
enum PropertyListDocument {
    /// The file's top-level dictionary: JSON when its first character is `{` or `[`, a binary property list when it
    /// starts `bplist`, else an XML property list. (A JSON object is not a plist, and a plist never starts with `{`
    /// unless it is OpenStep text, which no Info.plist is.) `expected` says what the file should be, for the error
    /// when its top is not a dictionary.
    static func dictionary(_ bytes: [UInt8], path: String, expected: String) throws(ConfigurationError)
        -> [String: PropertyListValue]
    {
        let first = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
        let root: PropertyListValue
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            do {
                root = try JSONPropertyListReader.read(bytes)
            } catch {
                throw ConfigurationError(file: path, line: error.line, keyPath: "", message: "not JSON: \(error.message)")
            }
        } else if bytes.starts(with: Array("bplist".utf8)) {
            if let reason = BinaryPropertyListShape.refusal(bytes) {
                throw ConfigurationError(file: path, keyPath: "", message: reason)
            }
            do {
                root = try PropertyListDecoder().decode(PropertyListValue.self, from: Data(bytes))
            } catch {
                throw ConfigurationError(file: path, keyPath: "", message: "a binary property list that cannot be "
                    + "read (cut short or damaged)")
            }
        } else {
            do {
                root = try XMLPropertyListReader.read(bytes)
            } catch {
                throw ConfigurationError(file: path, line: error.line > 0 ? error.line : nil, keyPath: "",
                                         message: "not a property list (XML or binary) or JSON: \(error.message)")
            }
        }
        guard let dictionary = root.dictionary else {
            throw ConfigurationError(file: path, keyPath: "", message: "holds \(root.kind), not a dictionary: "
                + expected)
        }
        return dictionary
    }
}
