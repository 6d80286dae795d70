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
        var notes: [ATSPolicy.ReadingNote] = []
        func note(_ text: String, on entry: String? = nil) { notes.append(.init(entry: entry, text: text)) }
        func policy(_ domains: [ATSPinnedDomain]) -> (policy: ATSPolicy, notes: [String]) {
            (ATSPolicy(domains: domains, hosts: hosts, document: root, readingNotes: notes), notes.map(\.text))
        }
        // `isDictionary(nsAppTransportSecurityDict)`, then the same of NSPinnedDomains: else nothing is pinned.
        guard let ats = root[transportSecurity] else {
            throw ConfigurationError(file: path, keyPath: transportSecurity, message: "not found: the file is no "
                + "Info.plist with App Transport Security settings (NSAppTransportSecurity → NSPinnedDomains)")
        }
        guard let atsDictionary = ats.dictionary else {
            note("\(path): \(transportSecurity) is \(ats.kind), not a dictionary: the device ignores it, and "
                + "no host is pinned")
            return policy([])
        }
        guard let pinned = atsDictionary[pinnedDomains] else {
            note("\(path): \(transportSecurity) has no \(pinnedDomains): no host is pinned")
            return policy([])
        }
        let keyPath = "\(transportSecurity).\(pinnedDomains)"
        guard let entries = pinned.dictionary else {
            note("\(path): \(keyPath) is \(pinned.kind), not a dictionary: the device ignores it, and no host "
                + "is pinned")
            return policy([])
        }
        var domains: [ATSPinnedDomain] = []
        for name in entries.keys.sorted() {
            guard let entry = entries[name] else { continue }
            let place = "\(path): \(keyPath).\(name)"
            guard let values = entry.dictionary else {
                note("\(place) is \(entry.kind), not a dictionary: the device skips it", on: name)
                continue
            }
            if let problem = PolicyHostName.syntaxError(name, as: .host) {
                note("\(place): \(problem); Security compares it with host names as it is written", on: name)
            }
            let subdomains = values[includesSubdomains]
            if let subdomains, subdomains != .bool(true), subdomains != .bool(false) {
                note("\(place).\(includesSubdomains) is \(subdomains.kind), not a boolean: only <true/> "
                    + "covers subdomains, so this entry pins \(name) alone", on: name)
            }
            func identities(_ key: String) -> [PublicKeyPin]? {
                guard let value = values[key] else { return nil }
                let where_ = "\(keyPath).\(name).\(key)"
                guard let items = value.array else {
                    note("\(path): \(where_) is \(value.kind), not an array: the device pins \(name) with no "
                        + "identity of this kind, and every chain fails", on: name)
                    return []
                }
                var pins: [PublicKeyPin] = []
                for (index, item) in items.enumerated() {
                    let itemPath = "\(where_)[\(index)]"
                    guard let text = item.dictionary?[spki]?.string else {
                        note("\(path): \(itemPath) is not a dictionary with a string \(spki): the device "
                            + "skips it", on: name)
                        continue
                    }
                    let source = PinSource(.configuration(path: path, line: nil, keyPath: itemPath + "." + spki))
                    guard let (pin, remark) = ATSIdentityText.pin(text, source: source) else {
                        note("\(path): \(itemPath).\(spki) '\(text)' holds no base64: the device skips it", on: name)
                        continue
                    }
                    if let remark { note("\(path): \(itemPath).\(spki): \(remark)", on: name) }
                    pins.append(pin)
                }
                if pins.isEmpty {
                    note("\(path): \(where_) holds no usable identity: the device rejects every chain for "
                        + "the hosts of \(name)", on: name)
                }
                return pins
            }
            let domain = ATSPinnedDomain(
                name: name, includesSubdomains: subdomains == .bool(true), leafIdentities: identities(leafIdentities),
                caIdentities: identities(caIdentities), location: "\(path): \(keyPath).\(name)")
            if domain.leafIdentities == nil, domain.caIdentities == nil {
                note("\(place) has neither \(leafIdentities) nor \(caIdentities): the device does not pin "
                    + name, on: name)
            }
            domains.append(domain)
        }
        return policy(domains)
    }
}
