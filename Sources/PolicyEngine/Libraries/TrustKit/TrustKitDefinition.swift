import FoundationEssentials
import OpenSSLWrapper

extension Library {
    /// TrustKit's `TSKPinningValidator` (iOS).
    public static let trustkit = Library(name: "trustkit", displayName: "TrustKit")
}

extension NativeExport.Format {
    /// TrustKit: an Info.plist fragment (XML plist with `TSKConfiguration` at its top).
    public static let trustkitPlist = Self("plist") { policy, losses throws(ExportError) in
        .file(try TrustKitConfigurationWriter.write(policy, json: false, losses: &losses))
    }
    /// TrustKit: the `TSKConfiguration` dictionary as JSON.
    public static let trustkitJSON = Self("json") { policy, losses throws(ExportError) in
        .file(try TrustKitConfigurationWriter.write(policy, json: true, losses: &losses))
    }
}

extension LibraryDefinition {
    /// TrustKit: inline `{domains: {…}}`, `TSKConfiguration` in an Info.plist or JSON as shipped, one pinned domain
    /// (`--trustkit-domain` and its switches) on the command line.
    static let trustkit = LibraryDefinition(
        library: .trustkit,
        policy: TrustKitPolicy.self,
        availability: [],
        inline: .decoder { value, context throws(ConfigurationError) in try TrustKitDefinition.inline(value, context) },
        configSettings: [],
        readNative: { path, settings throws(ConfigurationError) in
            TrustKitDefinition.reading(try TrustKitConfigurationReader.read(path, hosts: settings.hosts))
        },
        readBuild: { build, settings throws(ConfigurationError) in
            guard let plist = build.infoPlist, plist.root[TrustKitKey.configuration] != nil else { return nil }
            return TrustKitDefinition.reading(try TrustKitConfigurationReader.read(plist.bytes, path: plist.label,
                                                                                  hosts: settings.hosts))
        },
        exportForms: [.trustkitPlist, .trustkitJSON],
        flags: [
            LibraryFlag("--trustkit-domain", .option(valueName: "domain"),
                        help: "the pinned domain (default: the host checked)."),
            LibraryFlag("--include-subdomains", .switch,
                        help: "the pins also cover every subdomain of the pinned domain (TSKIncludeSubdomains)."),
            LibraryFlag("--report-only", .switch,
                        help: "a pin mismatch is only reported, the connection is allowed (TSKEnforcePinning = NO)."),
            LibraryFlag("--expiration-date", .option(valueName: "yyyy-MM-dd"),
                        help: "once past 00:00 UTC of that day, pinning is off, fail-open (TSKExpirationDate)."),
        ],
        flagsProblem: { flags in
            guard let date = flags.value("--expiration-date"), TrustKitDefinition.flagDay(date) == nil else { return nil }
            return "--expiration-date \(date): expected a date written yyyy-MM-dd"
        },
        importFlags: [],
        policyFromFlags: { flags throws(InputError) in try TrustKitDefinition.policy(flags) }
    )
}

/// How TrustKit's policy is written in a policy file and given on the command line.
enum TrustKitDefinition {
    /// How `config import` writes what was read: an empty TSKConfiguration (TrustKit inert) has no inline form, as
    /// an inline policy needs a pinned domain.
    static func reading(_ read: (policy: TrustKitPolicy, notes: [String])) -> NativeConfiguration.Reading {
        let form: NativeConfiguration.Reading.EntryForm = read.policy.domains.isEmpty
            ? .config([]) : .inline { TrustKitDefinition.entry(read.policy) }
        return .init(policy: read.policy, notes: read.notes, entryForm: form)
    }

    /// `{domains: {DOMAIN: {publicKeyHashes, includeSubdomains, excludeSubdomainFromParentPolicy, enforcePinning,
    /// expirationDate}}}`, TrustKit's keys without `kTSK`, hashes bare base64 as TrustKit writes them.
    static func inline(_ value: YAMLValue, _ context: LibraryDefinition.InlineContext) throws(ConfigurationError) -> TrustKitPolicy {
        var domains: [(name: String, policy: TrustKitDomainPolicy)] = []
        var entries: [String: YAMLValue] = [:]
        var domainsValue: YAMLValue?
        for (key, member) in try value.mapping(allowed: ["domains"]) where key == "domains" {
            domainsValue = member
            for (name, entry) in try member.anyMapping() {
                if let problem = PolicyHostName.syntaxError(name, as: .host) { throw entry.error(problem) }
                entries[name] = entry
                domains.append((name, try domain(entry)))
            }
        }
        do {
            return try TrustKitPolicy(domains: domains, hosts: context.hosts)
        } catch {
            // The refusal points at the key at fault when the entry writes it, else at the entry (or the domains).
            let entry = error.domain.flatMap { entries[$0] }
            // The entry was read as a mapping above, so reading it again cannot fail.
            let member = error.key.flatMap { key in (try? entry?.mapping(allowed: []))?.first { $0.key == key }?.value }
            throw (member ?? entry ?? domainsValue ?? value).error("TrustKit would refuse this configuration: "
                + error.message)
        }
    }

    private static func domain(_ entry: YAMLValue) throws(ConfigurationError) -> TrustKitDomainPolicy {
        var policy = TrustKitDomainPolicy(location: "\(entry.file):\(entry.line ?? 0)")
        let keys = ["publicKeyHashes", "includeSubdomains", "excludeSubdomainFromParentPolicy", "enforcePinning",
                    "expirationDate"]
        for (key, member) in try entry.mapping(allowed: keys) {
            if key != "excludeSubdomainFromParentPolicy" { policy.otherKeys.append(key) }
            switch key {
            case "publicKeyHashes":
                for hash in try member.sequenceOrScalar() {
                    let text = try hash.string()
                    guard let pin = TrustKitPinText.pin(text, source: hash.pinSource) else {
                        throw hash.error("'\(text)' is not base64 of 32 bytes (TrustKit's hashes are bare base64, "
                            + "without sha256/)")
                    }
                    policy.publicKeyHashes.append(pin)
                }
            case "includeSubdomains": policy.includeSubdomains = try member.bool()
            case "excludeSubdomainFromParentPolicy": policy.excludeSubdomainFromParentPolicy = try member.bool()
            case "enforcePinning": policy.enforcePinning = try member.bool()
            default: policy.expirationDate = try day(member)
            }
        }
        return policy
    }

    /// `yyyy-MM-dd`, read as 00:00 UTC of that day. TrustKit's `dateFromString:` returns nil for a string it cannot
    /// parse and the key silently disappears (the pins never expire); pinctl refuses it instead, so a typo cannot
    /// turn an expiry off unnoticed.
    static func day(_ value: YAMLValue) throws(ConfigurationError) -> Date {
        let text = try value.string()
        let digits = text.split(separator: "-", omittingEmptySubsequences: false)
        guard digits.count == 3, digits.map(\.count) == [4, 2, 2], case .success(let date) = Timestamp.parse(text) else {
            throw value.error("'\(text)' is not a date written yyyy-MM-dd (TrustKit would ignore it, and its pins "
                + "would never expire)")
        }
        return date
    }

    /// The inline form of `policy`, TrustKit's keys without `kTSK`.
    static func entry(_ policy: TrustKitPolicy) -> YAMLEmitter.Node {
        .mapping([("domains", .mapping(policy.domains.map { name, domain in
            var keys: [(key: String, value: YAMLEmitter.Node)] = []
            if domain.excludeSubdomainFromParentPolicy {
                keys.append(("excludeSubdomainFromParentPolicy", .scalar("true")))
            } else {
                keys.append(("publicKeyHashes",
                             AppEntryWriter.list(domain.publicKeyHashes.map {
                                $0.writtenText(in: .trustkit) ?? Data($0.hash).base64EncodedString()
                             })))
                if domain.includeSubdomains { keys.append(("includeSubdomains", .scalar("true"))) }
                if !domain.enforcePinning { keys.append(("enforcePinning", .scalar("false"))) }
                if let date = domain.expirationDate { keys.append(("expirationDate", .scalar(Timestamp.day(date)))) }
            }
            return (name, .mapping(keys))
        }))])
    }

    /// `--expiration-date`: yyyy-MM-dd, 00:00 UTC of that day.
    static func flagDay(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [4, 2, 2] else { return nil }
        return try? Timestamp.parse(text).get()
    }

    /// One pinned domain, `--trustkit-domain` or the host checked, with every pin as a key hash.
    static func policy(_ flags: PolicyFlags) throws(InputError) -> LibraryDefinition.FlagPolicy {
        let pins = try flags.loadPins()
        let pinnedDomain = flags.value("--trustkit-domain")
        return .init { host throws(InputError) in
            guard let name = pinnedDomain ?? host else {
                throw InputError("--library trustkit needs a domain to pin: --host, or --trustkit-domain")
            }
            if let pinnedDomain, let problem = PolicyHostName.syntaxError(pinnedDomain, as: .host) {
                throw InputError("--trustkit-domain \(pinnedDomain): \(problem)")
            }
            let entry = TrustKitDomainPolicy(
                publicKeyHashes: pins.certificates.map(\.keyPin) + pins.keyHashes,
                includeSubdomains: flags.has("--include-subdomains"), enforcePinning: !flags.has("--report-only"),
                expirationDate: flags.value("--expiration-date").flatMap(flagDay))
            do throws(TrustKitConfigurationError) {
                return try TrustKitPolicy(domains: [(name, entry)])
            } catch {
                throw InputError("TrustKit would refuse this configuration: \(error.message)")
            }
        }
    }
}
