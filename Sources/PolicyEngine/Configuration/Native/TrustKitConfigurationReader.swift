import Foundation
import OpenSSLWrapper

/// TrustKit's `TSKConfiguration`: a top-level key of an Info.plist (XML or binary), or that dictionary alone as a
/// plist or as JSON. Read with Foundation's `PropertyListSerialization` and `JSONSerialization`, then decoded as
/// parse_configuration.m decodes it (`TrustKitDictionaryReader`), so TrustKit's refusals, and only those, stop it.
public enum TrustKitConfigurationReader {
    public static func read(_ path: String, hosts: [String]) throws(ConfigurationError)
        -> (policy: TrustKitPolicy, notes: [String])
    {
        try read(try ConfigurationError.contents(of: path), path: path, hosts: hosts)
    }

    /// Reads `bytes` as the file at `path`, which only names it in errors and pin sources.
    public static func read(_ bytes: [UInt8], path: String, hosts: [String]) throws(ConfigurationError)
        -> (policy: TrustKitPolicy, notes: [String])
    {
        let root = try document(bytes, path: path)
        var reader = TrustKitDictionaryReader(path: path)
        let (configuration, keyPath) = try locate(root, path: path)
        let policy = try reader.policy(configuration, at: keyPath, hosts: hosts)
        return (policy, reader.notes)
    }

    /// The file's top-level dictionary: JSON when its first character is `{` or `[`, else a property list in any
    /// form `PropertyListSerialization` reads. (A JSON object is not a plist, and a plist never starts with `{`
    /// unless it is OpenStep text, which no Info.plist is.)
    static func document(_ bytes: [UInt8], path: String) throws(ConfigurationError) -> [String: Any] {
        let data = Data(bytes)
        let first = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
        let root: Any
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            do {
                root = try JSONSerialization.jsonObject(with: data)
            } catch {
                // "Invalid value around character 10.": a byte offset, which gives the line.
                let detail = debugDescription(error)
                let line = number(after: "character ", in: detail).map { offset in
                    1 + bytes.prefix(offset).count { $0 == 0x0A }
                }
                throw ConfigurationError(file: path, line: line, keyPath: "", message: "not JSON: \(detail)")
            }
        } else {
            if bytes.starts(with: Array("bplist".utf8)), let object = BinaryPropertyListSets.firstSet(in: bytes) {
                throw ConfigurationError(file: path, keyPath: "", message: "a binary property list holding a set "
                    + "(object \(object)), which is no property list type: TrustKit's configuration has none")
            }
            do {
                root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            } catch where bytes.starts(with: Array("bplist".utf8)) {
                // Foundation tries the other forms after the binary one fails: their complaint would mislead.
                throw ConfigurationError(file: path, keyPath: "", message: "a binary property list that cannot be "
                    + "read (cut short or damaged)")
            } catch {
                // "Encountered unknown tag strin on line 5", "Value missing for key inside <dict> at line 1".
                let detail = debugDescription(error)
                throw ConfigurationError(file: path, line: number(after: "line ", in: detail), keyPath: "",
                                         message: "not a property list (XML or binary) or JSON: \(detail)")
            }
        }
        guard let dictionary = root as? [String: Any] else {
            throw ConfigurationError(file: path, keyPath: "", message: "holds \(TrustKitValueDecoding.kind(root)), "
                + "not a dictionary: an Info.plist, or TrustKit's TSKConfiguration dictionary alone")
        }
        return dictionary
    }

    /// `TSKConfiguration` in an Info.plist, or the file itself when it is that dictionary (it has TrustKit's keys at
    /// its top), with the key path of what it holds.
    static func locate(_ root: [String: Any], path: String) throws(ConfigurationError)
        -> (configuration: [String: Any], keyPath: String)
    {
        if let value = root[TrustKitKey.configuration] {
            guard let configuration = value as? [String: Any] else {
                throw ConfigurationError(file: path, keyPath: TrustKitKey.configuration, message: "must be a "
                    + "dictionary, not \(TrustKitValueDecoding.kind(value))")
            }
            return (configuration, TrustKitKey.configuration)
        }
        let globalKeys = [TrustKitKey.pinnedDomains, TrustKitKey.swizzleNetworkDelegates,
                          TrustKitKey.ignorePinningForUserDefinedTrustAnchors]
        guard globalKeys.contains(where: { root[$0] != nil }) else {
            throw ConfigurationError(file: path, keyPath: TrustKitKey.configuration, message: "not found: the file "
                + "is neither an Info.plist with TSKConfiguration nor that dictionary alone (with TSKPinnedDomains)")
        }
        return (root, "")
    }

    private static func debugDescription(_ error: any Error) -> String {
        let info = (error as NSError).userInfo
        let text = info[NSDebugDescriptionErrorKey] as? String ?? (error as NSError).localizedDescription
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// The whole number after `word` in `text`.
    private static func number(after word: String, in text: String) -> Int? {
        guard let range = text.range(of: word) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }
}
