import FoundationEssentials

/// Decodes a `TSKConfiguration` dictionary as parse_configuration.m does: each key TrustKit defines is read, or, when
/// it cannot change a verdict offline (reports, swizzling, macOS's user trust anchors, the legacy algorithms), checked
/// and noted; unknown keys are ignored with a note, as TrustKit ignores them. A value of a type TrustKit's messages
/// do not accept raises at launch, and TrustKit's "configuration invalid" refusals crash it: both are errors here,
/// at the key path (`TSKConfiguration.TSKPinnedDomains.api.example.com.TSKPublicKeyHashes[1]`).
struct TrustKitDictionaryReader {
    let path: String
    private(set) var notes: [String] = []

    init(path: String) { self.path = path }

    /// What one domain's entry holds besides its values, for messages.
    private struct EntryFacts {
        var keyPath: String
        var keys: Set<String>
        /// It spells the exclusion `TSKExcludeSubdomainFromParentPolicy`, a key TrustKit does not know.
        var guessedExclusion: Bool
    }

    mutating func policy(_ configuration: [String: PropertyListValue], at keyPath: String, hosts: [String])
        throws(ConfigurationError) -> TrustKitPolicy
    {
        // TrustKit.m: `if (self && [trustKitConfig count] > 0)`: an empty configuration is never parsed.
        guard !configuration.isEmpty else {
            note(keyPath, "empty: TrustKit never parses an empty configuration and stays inert, pinning nothing")
            return TrustKitPolicy.inert(hosts: hosts)
        }
        // Where the domains are, or would be: a refusal of them all points there.
        let domainsPath = Self.join(keyPath, TrustKitKey.pinnedDomains)
        var domains: [(name: String, policy: TrustKitDomainPolicy)] = []
        var facts: [String: EntryFacts] = [:]
        var looksLegacy = false
        for (key, value) in configuration.sorted(by: { $0.key < $1.key }) {
            let here = Self.join(keyPath, key)
            switch key {
            case TrustKitKey.pinnedDomains:
                guard let entries = value.dictionary else {
                    throw typeError(here, value, "a dictionary of domains")
                }
                for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
                    let entryPath = Self.join(here, name)
                    if let problem = PolicyHostName.syntaxError(name, as: .host) {
                        throw ConfigurationError(file: path, keyPath: entryPath, message: problem)
                    }
                    guard let dictionary = entry.dictionary else {
                        throw typeError(entryPath, entry, "a dictionary (the domain's policy)")
                    }
                    var entryFacts = EntryFacts(keyPath: entryPath, keys: Set(dictionary.keys), guessedExclusion: false)
                    domains.append((name, try domain(dictionary, at: entryPath, facts: &entryFacts)))
                    facts[name] = entryFacts
                }
            case TrustKitKey.swizzleNetworkDelegates:
                _ = try flag(value, at: here)
                note(here, "ignored: it decides whether TrustKit hooks NSURLSession's delegates or the app calls "
                    + "TSKPinningValidator itself; the pins are checked at launch either way")
            case TrustKitKey.ignorePinningForUserDefinedTrustAnchors:
                _ = try flag(value, at: here)
                note(here, "ignored: macOS only; pinctl judges as iOS does, where a user-installed CA does not "
                    + "bypass the pins")
            case TrustKitConfigurationWriter.droppedKey:
                let items = value.array?.compactMap(\.string) ?? []
                note(here, "written by pinctl config export, which dropped: \(items.joined(separator: "; "))")
            default:
                looksLegacy = looksLegacy || (value.dictionary != nil && key.contains("."))
                note(here, "ignored: TrustKit does not know this key")
            }
        }
        do {
            return try TrustKitPolicy(domains: domains, hosts: hosts)
        } catch {
            var place = domainsPath
            var hint = ""
            if let name = error.domain, let entry = facts[name] {
                place = entry.keyPath
                if let key = error.key.map(TrustKitKey.native), entry.keys.contains(key) {
                    place = Self.join(place, key)
                }
                if entry.guessedExclusion {
                    hint = ". TrustKit's exclusion key is spelled kSKExcludeSubdomainFromParentPolicy; it does not "
                        + "know \(TrustKitKey.guessedExclusion), so this entry is an ordinary one and needs pins"
                }
            } else if error.domain == nil, looksLegacy {
                hint = ". Domains directly under TSKConfiguration are the layout of TrustKit before 1.2.0; they belong "
                    + "under TSKPinnedDomains"
            }
            throw refusal(place, error.message + hint)
        }
    }

    /// One entry of `TSKPinnedDomains`. An exclusion (`kSKExcludeSubdomainFromParentPolicy` true) is only listed:
    /// TrustKit refuses it when it holds any other key, whatever that key holds.
    private mutating func domain(_ entry: [String: PropertyListValue], at keyPath: String, facts: inout EntryFacts)
        throws(ConfigurationError) -> TrustKitDomainPolicy
    {
        var policy = TrustKitDomainPolicy(location: "\(path) (\(keyPath))")
        policy.otherKeys = entry.keys.filter { $0 != TrustKitKey.excludeSubdomainFromParentPolicy }.sorted()
        if let value = entry[TrustKitKey.excludeSubdomainFromParentPolicy],
           try flag(value, at: Self.join(keyPath, TrustKitKey.excludeSubdomainFromParentPolicy)) {
            policy.excludeSubdomainFromParentPolicy = true
            return policy
        }
        for (key, value) in entry.sorted(by: { $0.key < $1.key }) {
            let here = Self.join(keyPath, key)
            switch key {
            case TrustKitKey.publicKeyHashes:
                policy.publicKeyHashes = try hashes(value, at: here)
            case TrustKitKey.includeSubdomains:
                policy.includeSubdomains = try flag(value, at: here)
            case TrustKitKey.enforcePinning:
                policy.enforcePinning = try flag(value, at: here)
            case TrustKitKey.excludeSubdomainFromParentPolicy:
                continue  // false: an ordinary entry
            case TrustKitKey.expirationDate:
                policy.expirationDate = try expiration(value, at: here)
            case TrustKitKey.reportUris:
                try reportURIs(value, at: here)
                note(here, "ignored: where TrustKit sends pin failure reports, which never change its decision")
            case TrustKitKey.disableDefaultReportUri:
                _ = try flag(value, at: here)
                note(here, "ignored: whether TrustKit also reports to its default server; reports never change its "
                    + "decision")
            case TrustKitKey.publicKeyAlgorithms:
                note(here, "ignored: required before TrustKit 1.6.0, never read since (the key's type is read from "
                    + "the certificate)")
            case TrustKitKey.additionalTrustAnchors:
                // TrustKit trusts these roots for the domain; judged without them, a chain the app accepts would
                // be called broken, so the file stops rather than be read in part.
                throw ConfigurationError(file: path, keyPath: here, message: "TrustKit also trusts these "
                    + "certificates for the domain, which pinctl does not read: remove the key and give the "
                    + "certificates as anchors instead (--ca-file, or anchors: ca-files: in pinctl.yaml)")
            case TrustKitKey.guessedExclusion:
                facts.guessedExclusion = true
                note(here, "ignored: TrustKit does not know this key; its exclusion key is spelled "
                    + TrustKitKey.excludeSubdomainFromParentPolicy)
            default:
                note(here, "ignored: TrustKit does not know this key")
            }
        }
        return policy
    }

    /// `[[NSData alloc] initWithBase64EncodedString:pin options:0]` of each string, 32 bytes long: padded standard
    /// base64 (Foundation's decoder, as TrustKit's), no `sha256/`, no blanks.
    private func hashes(_ value: PropertyListValue, at keyPath: String) throws(ConfigurationError) -> [PublicKeyPin] {
        guard let elements = value.array else { throw typeError(keyPath, value, "an array of base64 strings") }
        var pins: [PublicKeyPin] = []
        for (index, element) in elements.enumerated() {
            let here = keyPath + "[\(index)]"
            guard let text = element.string else { throw typeError(here, element, "a base64 string") }
            let source = PinSource(.configuration(path: path, line: nil, keyPath: here))
            guard let pin = TrustKitPinText.pin(text, source: source) else {
                let why = text.hasPrefix("sha256/") ? " (TrustKit's hashes are bare base64, without sha256/)" : ""
                throw refusal(here, "'\(text)' is not the base64 of a 32-byte SHA-256 hash\(why)")
            }
            pins.append(pin)
        }
        return pins
    }

    /// `[dateFormat dateFromString:value]`: a string; what the formatter cannot read is dropped, silently in TrustKit.
    private mutating func expiration(_ value: PropertyListValue, at keyPath: String) throws(ConfigurationError) -> Date? {
        if case .date = value {
            throw refusal(keyPath, "a <date>, but TrustKit reads a string written yyyy-MM-dd (it hands this value to "
                + "NSDateFormatter's dateFromString:, which raises at launch)")
        }
        guard let text = value.string else { throw typeError(keyPath, value, "a string written yyyy-MM-dd") }
        guard let date = TrustKitValueDecoding.expirationDate(text) else {
            note(keyPath, "'\(text)' is not a date TrustKit's yyyy-MM-dd parser reads: TrustKit drops the key, so "
                + "these pins never expire")
            return nil
        }
        if Timestamp.day(date) != text {
            note(keyPath, "TrustKit's lenient date parser reads '\(text)' as \(Timestamp.day(date))")
        }
        return date
    }

    /// `[NSURL URLWithString:reportUriStr] == nil` → "Invalid URL for reportUri".
    private func reportURIs(_ value: PropertyListValue, at keyPath: String) throws(ConfigurationError) {
        guard let elements = value.array else { throw typeError(keyPath, value, "an array of URL strings") }
        for (index, element) in elements.enumerated() {
            guard let text = element.string else {
                throw typeError(keyPath + "[\(index)]", element, "a URL string")
            }
            guard URL(string: text) != nil else { throw refusal(keyPath + "[\(index)]", "'\(text)' is not a URL") }
        }
    }

    /// `[value boolValue]`; a string is read as TrustKit reads it, and noted.
    private mutating func flag(_ value: PropertyListValue, at keyPath: String) throws(ConfigurationError) -> Bool {
        guard let flag = TrustKitValueDecoding.bool(value) else { throw typeError(keyPath, value, "a boolean") }
        if let text = value.string {
            note(keyPath, "the string '\(text)' is read with boolValue as \(flag ? "<true/>" : "<false/>")")
        }
        return flag
    }

    private mutating func note(_ keyPath: String, _ message: String) {
        notes.append("\(path): \(keyPath.isEmpty ? "" : keyPath + ": ")\(message)")
    }

    private func typeError(_ keyPath: String, _ value: PropertyListValue, _ expected: String) -> ConfigurationError {
        ConfigurationError(file: path, keyPath: keyPath, message: "must be \(expected), not "
            + "\(value.kind) (TrustKit raises an exception at launch on it)")
    }

    private func refusal(_ keyPath: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: path, keyPath: keyPath,
                           message: "TrustKit would refuse this configuration: " + message)
    }

    static func join(_ keyPath: String, _ key: String) -> String { keyPath.isEmpty ? key : keyPath + "." + key }
}
