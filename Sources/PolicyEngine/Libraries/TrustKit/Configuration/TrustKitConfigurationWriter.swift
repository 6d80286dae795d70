import FoundationEssentials
import XMLTree

/// Writes portable rules as TrustKit's `TSKConfiguration`: an Info.plist fragment (an XML plist whose root dictionary
/// holds `TSKConfiguration`) or that dictionary alone as JSON. Only keys TrustKit reads, the exclusion spelled
/// `kSK…` as TrustKit spells it, the expiration a `yyyy-MM-dd` string (a `<date>` would crash it); and nothing TrustKit
/// would refuse at launch: the result passes the checks `TrustKitPolicy` runs, or the export is refused.
public enum TrustKitConfigurationWriter {
    /// The top-level key of a JSON export naming what was dropped: TrustKit ignores keys it does not know.
    public static let droppedKey = "_pinctlDropped"

    public static func write(_ policy: PortablePolicy, json: Bool, losses: inout ExportLosses) throws(ExportError)
        -> [UInt8]
    {
        let domains = entries(policy, losses: &losses)
        do {
            try TrustKitPolicy.check(domains)
        } catch {
            throw ExportError("TrustKit would refuse the configuration at launch: \(error.message)")
        }
        var pinnedDomains: [String: PropertyListValue] = [:]
        for (name, domain) in domains { pinnedDomains[name] = dictionary(domain) }
        var configuration: [String: PropertyListValue] = [TrustKitKey.pinnedDomains: .dictionary(pinnedDomains)]
        if json {
            // JSON can hold any character, but a NUL in an object key is more than Jansson, so pinctl, reads back.
            if let name = domains.map(\.name).first(where: { $0.unicodeScalars.contains("\0") }) {
                throw ExportError("the domain '\(name)' holds a NUL character, which a JSON key cannot hold for "
                    + "pinctl (Jansson) to read back: correct the name")
            }
            if !losses.isEmpty { configuration[droppedKey] = .array(losses.items.map(PropertyListValue.string)) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            do {
                return [UInt8](try encoder.encode(PropertyListValue.dictionary(configuration))) + [0x0A]
            } catch {
                throw ExportError("the JSON could not be written: \(error)")
            }
        }
        // XML 1.0 has no way to write most control characters, even escaped: the rule of every XML export.
        if let name = domains.map(\.name).first(where: { XMLCharacters.firstUnwritable(in: $0) != nil }) {
            throw ExportError("the domain '\(name)' holds a control character, which an XML property list cannot "
                + "hold: export --format json, or correct the name")
        }
        let comments = ["Written by pinctl config export."]
            + (losses.isEmpty ? [] : ["Not expressible in TrustKit's configuration, dropped: "
                + losses.items.joined(separator: "; ")])
        return try XMLPropertyListWriter.write([TrustKitKey.configuration: .dictionary(configuration)], comments: comments)
    }

    /// One entry per domain. Rules for one domain (an exact one and one with subdomains, as OkHttp may have) become
    /// one entry; an exclusion is written only under a parent that covers it, because TrustKit refuses it otherwise
    /// and a host no entry covers is unpinned anyway.
    static func entries(_ policy: PortablePolicy, losses: inout ExportLosses)
        -> [(name: String, policy: TrustKitDomainPolicy)]
    {
        var order: [String] = []
        var rulesByDomain: [String: [PortablePolicy.Rule]] = [:]
        for rule in policy.rules {
            if rulesByDomain[rule.domain] == nil { order.append(rule.domain) }
            rulesByDomain[rule.domain, default: []].append(rule)
        }
        var domains: [(name: String, policy: TrustKitDomainPolicy)] = []
        var exclusions: [String] = []
        for name in order {
            let rules = rulesByDomain[name] ?? []
            let pinning = rules.filter { !$0.excluded }
            guard !pinning.isEmpty else {
                exclusions.append(name)
                continue
            }
            if pinning.count < rules.count {
                losses.add("the exclusion of \(name), which also has pins (TrustKit has one entry per domain)")
            }
            domains.append((name, merged(name, pinning, &losses)))
        }
        // getPinningConfigurationKeyForDomain([@"a" stringByAppendingString:domainName], ...), as TrustKit checks it.
        for name in exclusions where TrustKitPolicy.lookup(host: "a" + name, in: domains) != nil {
            domains.append((name, TrustKitDomainPolicy(excludeSubdomainFromParentPolicy: true)))
        }
        return domains
    }

    private static func merged(_ name: String, _ rules: [PortablePolicy.Rule], _ losses: inout ExportLosses)
        -> TrustKitDomainPolicy
    {
        var domain = TrustKitDomainPolicy()
        for rule in rules {
            switch rule.scope {
            case .exact: break
            case .withSubdomains: domain.includeSubdomains = true
            case .oneLabel:
                losses.add("*.\(name) (exactly one more label) becomes \(name) with TSKIncludeSubdomains (it and every "
                    + "name below it)")
                domain.includeSubdomains = true
            }
            if !rule.certificates.isEmpty {
                losses.add("whole-certificate pins of \(name) become pins of their keys (TrustKit pins keys)")
            }
            for pin in rule.allKeyPins {
                guard pin.algorithm == .sha256 else {
                    losses.add("SHA-1 pins of \(name) (TrustKit reads SHA-256 hashes only)")
                    continue
                }
                if !domain.publicKeyHashes.contains(pin) { domain.publicKeyHashes.append(pin) }
            }
        }
        // Where one domain's rules disagree, the entry keeps the stricter: enforced, and no expiry.
        domain.enforcePinning = rules.contains(where: \.enforced)
        if rules.contains(where: { !$0.enforced }), domain.enforcePinning {
            losses.add("report-only pinning of one of \(name)'s rules (its entry enforces the pins)")
        }
        let expirations = Set(rules.map(\.expiration))
        if expirations.count == 1 {
            domain.expirationDate = rules[0].expiration
        } else {
            losses.add("the expirations of \(name)'s rules, which differ (its entry never expires)")
        }
        if Set(rules.map { Set($0.allKeyPins) }).count > 1 {
            losses.add("the separate pins of \(name)'s rules (its entry holds every pin of them all, for the domain "
                + "and the names below it alike)")
        }
        return domain
    }

    private static func dictionary(_ domain: TrustKitDomainPolicy) -> PropertyListValue {
        if domain.excludeSubdomainFromParentPolicy {
            return .dictionary([TrustKitKey.excludeSubdomainFromParentPolicy: .bool(true)])
        }
        var entry: [String: PropertyListValue] = [
            TrustKitKey.publicKeyHashes: .array(domain.publicKeyHashes.map {
                .string($0.writtenText(in: .trustkit) ?? Data($0.hash).base64EncodedString())
            }),
            TrustKitKey.includeSubdomains: .bool(domain.includeSubdomains),
            TrustKitKey.enforcePinning: .bool(domain.enforcePinning),
        ]
        if let expiration = domain.expirationDate { entry[TrustKitKey.expirationDate] = .string(Timestamp.day(expiration)) }
        return .dictionary(entry)
    }
}
