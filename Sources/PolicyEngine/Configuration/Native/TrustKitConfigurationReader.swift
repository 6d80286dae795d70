import FoundationEssentials

/// TrustKit's `TSKConfiguration`: a top-level key of an Info.plist (XML or binary), or that dictionary alone as a
/// plist or as JSON. Read into `PropertyListValue`s (XML with libxml2, binary with FoundationEssentials, JSON with
/// Jansson), then decoded as parse_configuration.m decodes it (`TrustKitDictionaryReader`), so TrustKit's refusals
/// stop it, and besides them only a domain that is no host name (`PolicyHostName`).
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

    /// The file's top-level dictionary: JSON when its first character is `{` or `[`, a binary property list when it
    /// starts `bplist`, else an XML property list. (A JSON object is not a plist, and a plist never starts with `{`
    /// unless it is OpenStep text, which no Info.plist is.)
    static func document(_ bytes: [UInt8], path: String) throws(ConfigurationError) -> [String: PropertyListValue] {
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
            throw ConfigurationError(file: path, keyPath: "", message: "holds \(root.kind), not a dictionary: an "
                + "Info.plist, or TrustKit's TSKConfiguration dictionary alone")
        }
        return dictionary
    }

    /// `TSKConfiguration` in an Info.plist, or the file itself when it is that dictionary (it has TrustKit's keys at
    /// its top), with the key path of what it holds.
    static func locate(_ root: [String: PropertyListValue], path: String) throws(ConfigurationError)
        -> (configuration: [String: PropertyListValue], keyPath: String)
    {
        if let value = root[TrustKitKey.configuration] {
            guard let configuration = value.dictionary else {
                throw ConfigurationError(file: path, keyPath: TrustKitKey.configuration, message: "must be a "
                    + "dictionary, not \(value.kind)")
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
}
