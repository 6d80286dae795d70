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
        let root = try PropertyListDocument.dictionary(bytes, path: path, expected: "an Info.plist, or TrustKit's "
            + "TSKConfiguration dictionary alone")
        var reader = TrustKitDictionaryReader(path: path)
        let (configuration, keyPath) = try locate(root, path: path)
        let policy = try reader.policy(configuration, at: keyPath, hosts: hosts)
        return (policy, reader.notes)
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
