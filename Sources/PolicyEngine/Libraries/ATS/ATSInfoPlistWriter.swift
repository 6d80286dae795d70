import FoundationEssentials

/// Writes an Info.plist whose `NSAppTransportSecurity` → `NSPinnedDomains` holds a policy: an ats app's own (the
/// Info.plist it was read from, whole), or portable rules of another library's app.
enum ATSInfoPlistWriter {
    /// An ats policy as itself: the Info.plist it came from with every other key kept, or its entries alone.
    static func write(_ policy: ATSPolicy) throws(ExportError) -> [UInt8] {
        if let document = policy.document {
            return try XMLPropertyListWriter.write(document, comments: ["Written by pinctl config export: the app's "
                + "Info.plist as read."])
        }
        var entries: [String: PropertyListValue] = [:]
        for domain in policy.domains {
            entries[domain.name] = entry(includes: domain.includesSubdomains, leaf: domain.leafIdentities,
                                         ca: domain.caIdentities)
        }
        return try document(entries, losses: ExportLosses())
    }

    /// Portable rules as NSPinnedDomains entries: a rule for a domain and its subdomains is one entry with
    /// `NSIncludesSubdomains`. What ATS cannot say is a loss, never written as something it is not.
    static func write(_ policy: PortablePolicy, losses: inout ExportLosses) throws(ExportError) -> [UInt8] {
        var byDomain: [String: [PortablePolicy.Rule]] = [:]
        var order: [String] = []
        for rule in policy.rules {
            if byDomain[rule.domain] == nil { order.append(rule.domain) }
            byDomain[rule.domain, default: []].append(rule)
        }
        var entries: [String: PropertyListValue] = [:]
        for name in order {
            let rules = byDomain[name] ?? []
            let pinning = rules.filter { !$0.excluded }
            for rule in rules where rule.excluded {
                losses.add("the exclusion of \(name) (ATS has none: a parent entry with NSIncludesSubdomains still "
                    + "pins it)")
            }
            guard !pinning.isEmpty else { continue }
            if pinning.contains(where: { $0.expiration != nil }) { losses.add("the expiration of \(name)'s pins") }
            if pinning.contains(where: { !$0.enforced }) {
                losses.add("report-only pinning of \(name) (ATS always enforces)")
            }
            if pinning.contains(where: { $0.scope == .withSubdomains }) {
                losses.add("the pinning of names more than one label below \(name) (NSIncludesSubdomains covers one)")
            }
            if pinning.allSatisfy({ $0.scope == .oneLabel }) {
                losses.add("\(name) itself left unpinned (NSIncludesSubdomains pins the domain too)")
            }
            if pinning.contains(where: { !$0.certificates.isEmpty }) {
                losses.add("whole-certificate pins of \(name), written as their keys")
            }
            var pins: [PublicKeyPin] = []
            for pin in pinning.flatMap(\.allKeyPins) where pin.algorithm == .sha256 && !pins.contains(pin) {
                pins.append(pin)
            }
            if pinning.flatMap(\.allKeyPins).contains(where: { $0.algorithm != .sha256 }) {
                losses.add("the sha1 pins of \(name) (ATS takes SHA-256 only)")
            }
            guard !pins.isEmpty else {
                throw ExportError("\(name) would have no SHA-256 identity: ATS would reject every chain for it")
            }
            // A pin does not say which certificate its key is: written as CA identities, it matches any certificate
            // of the built path but the leaf.
            losses.add("the pins of \(name) match any certificate of the chain; as NSPinnedCAIdentities they match the "
                + "CA certificates only (never the leaf)")
            entries[name] = entry(includes: pinning.contains { $0.scope != .exact }, leaf: nil, ca: pins)
        }
        return try document(entries, losses: losses)
    }

    private static func entry(includes: Bool, leaf: [PublicKeyPin]?, ca: [PublicKeyPin]?) -> PropertyListValue {
        func list(_ pins: [PublicKeyPin]) -> PropertyListValue {
            .array(pins.map { pin in
                .dictionary([ATSInfoPlistReader.spki: .string(pin.writtenText(in: .ats)
                    ?? Data(pin.hash).base64EncodedString())])
            })
        }
        var values: [String: PropertyListValue] = [:]
        if includes { values[ATSInfoPlistReader.includesSubdomains] = .bool(true) }
        if let leaf { values[ATSInfoPlistReader.leafIdentities] = list(leaf) }
        if let ca { values[ATSInfoPlistReader.caIdentities] = list(ca) }
        return .dictionary(values)
    }

    private static func document(_ entries: [String: PropertyListValue], losses: ExportLosses) throws(ExportError)
        -> [UInt8]
    {
        let root: [String: PropertyListValue] = [ATSInfoPlistReader.transportSecurity: .dictionary([
            ATSInfoPlistReader.pinnedDomains: .dictionary(entries),
        ])]
        let comments = ["Written by pinctl config export: merge NSAppTransportSecurity into the app's Info.plist."]
            + (losses.isEmpty ? [] : ["Not expressible in NSPinnedDomains, dropped: "
                + losses.items.joined(separator: "; ")])
        return try XMLPropertyListWriter.write(root, comments: comments)
    }
}
