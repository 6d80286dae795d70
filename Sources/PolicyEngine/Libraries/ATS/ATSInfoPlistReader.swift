import FoundationEssentials

/// Reads `NSAppTransportSecurity` → `NSPinnedDomains` from an app's Info.plist (XML or binary) as Security does
/// (`getNSPinnedIdentitiesForHostName` and `parseNSPinnedDomains`, OSX/sec/Security/SecPolicy.c): what Security
/// skips is skipped here too, and each skip is a note, so nothing is dropped without a word.
public enum ATSInfoPlistReader {
    static let transportSecurity = "NSAppTransportSecurity"
    static let pinnedDomains = "NSPinnedDomains"
    static let includesSubdomains = "NSIncludesSubdomains"
    static let leafIdentities = "NSPinnedLeafIdentities"
    static let caIdentities = "NSPinnedCAIdentities"
    static let spki = "SPKI-SHA256-BASE64"

    public static func read(_ path: String, hosts: [String]) throws(ConfigurationError)
        -> (policy: ATSPolicy, notes: [String])
    {
        try read(try ConfigurationError.contents(of: path), path: path, hosts: hosts)
    }

    /// Reads `bytes` as the file at `path`, which only names it in notes and pin sources.
    public static func read(_ bytes: [UInt8], path: String, hosts: [String]) throws(ConfigurationError)
        -> (policy: ATSPolicy, notes: [String])
    {
        let root = try PropertyListDocument.dictionary(bytes, path: path, expected: "an app's Info.plist")
        var notes: [String] = []
        // `isDictionary(nsAppTransportSecurityDict)`, then the same of NSPinnedDomains: else nothing is pinned.
        guard let ats = root[transportSecurity] else {
            throw ConfigurationError(file: path, keyPath: transportSecurity, message: "not found: the file is no "
                + "Info.plist with App Transport Security settings (NSAppTransportSecurity → NSPinnedDomains)")
        }
        guard let atsDictionary = ats.dictionary else {
            notes.append("\(path): \(transportSecurity) is \(ats.kind), not a dictionary: the device ignores it, and "
                + "no host is pinned")
            return (ATSPolicy(domains: [], hosts: hosts, document: root, readingNotes: notes), notes)
        }
        guard let pinned = atsDictionary[pinnedDomains] else {
            notes.append("\(path): \(transportSecurity) has no \(pinnedDomains): no host is pinned")
            return (ATSPolicy(domains: [], hosts: hosts, document: root, readingNotes: notes), notes)
        }
        let keyPath = "\(transportSecurity).\(pinnedDomains)"
        guard let entries = pinned.dictionary else {
            notes.append("\(path): \(keyPath) is \(pinned.kind), not a dictionary: the device ignores it, and no host "
                + "is pinned")
            return (ATSPolicy(domains: [], hosts: hosts, document: root, readingNotes: notes), notes)
        }
        var domains: [ATSPinnedDomain] = []
        for name in entries.keys.sorted() {
            guard let entry = entries[name] else { continue }
            let place = "\(path): \(keyPath).\(name)"
            guard let values = entry.dictionary else {
                notes.append("\(place) is \(entry.kind), not a dictionary: the device skips it")
                continue
            }
            if let problem = PolicyHostName.syntaxError(name, as: .host) {
                notes.append("\(place): \(problem); Security compares it with host names as it is written")
            }
            let subdomains = values[includesSubdomains]
            if let subdomains, subdomains != .bool(true), subdomains != .bool(false) {
                notes.append("\(place).\(includesSubdomains) is \(subdomains.kind), not a boolean: only <true/> "
                    + "covers subdomains, so this entry pins \(name) alone")
            }
            func identities(_ key: String) -> [PublicKeyPin]? {
                guard let value = values[key] else { return nil }
                let where_ = "\(keyPath).\(name).\(key)"
                guard let items = value.array else {
                    notes.append("\(path): \(where_) is \(value.kind), not an array: the device pins \(name) with no "
                        + "identity of this kind, and every chain fails")
                    return []
                }
                var pins: [PublicKeyPin] = []
                for (index, item) in items.enumerated() {
                    let itemPath = "\(where_)[\(index)]"
                    guard let text = item.dictionary?[spki]?.string else {
                        notes.append("\(path): \(itemPath) is not a dictionary with a string \(spki): the device "
                            + "skips it")
                        continue
                    }
                    let source = PinSource(.configuration(path: path, line: nil, keyPath: itemPath + "." + spki))
                    guard let (pin, note) = ATSIdentityText.pin(text, source: source) else {
                        notes.append("\(path): \(itemPath).\(spki) '\(text)' holds no base64: the device skips it")
                        continue
                    }
                    if let note { notes.append("\(path): \(itemPath).\(spki): \(note)") }
                    pins.append(pin)
                }
                if pins.isEmpty {
                    notes.append("\(path): \(where_) holds no usable identity: the device rejects every chain for "
                        + "the hosts of \(name)")
                }
                return pins
            }
            let domain = ATSPinnedDomain(
                name: name, includesSubdomains: subdomains == .bool(true), leafIdentities: identities(leafIdentities),
                caIdentities: identities(caIdentities), location: "\(path): \(keyPath).\(name)")
            if domain.leafIdentities == nil, domain.caIdentities == nil {
                notes.append("\(place) has neither \(leafIdentities) nor \(caIdentities): the device does not pin "
                    + name)
            }
            domains.append(domain)
        }
        return (ATSPolicy(domains: domains, hosts: hosts, document: root, readingNotes: notes), notes)
    }
}
