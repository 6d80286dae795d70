import FoundationEssentials

extension Library {
    /// App Transport Security's identity pinning, `NSPinnedDomains` in an app's Info.plist (iOS 14, macOS 11).
    public static let ats = Library(name: "ats", displayName: "Apple ATS")
}

extension NativeExport.Format {
    /// ATS: an Info.plist with `NSAppTransportSecurity` → `NSPinnedDomains`; an ats app read from its Info.plist is
    /// written back whole, its other keys kept.
    public static let atsPlist = Self("info-plist", own: { policy throws(ExportError) in
        guard let ats = policy as? ATSPolicy else { return nil }
        return .file(try ATSInfoPlistWriter.write(ats))
    }) { policy, losses throws(ExportError) in
        .file(try ATSInfoPlistWriter.write(policy, losses: &losses))
    }
}

extension LibraryDefinition {
    /// ATS: inline `{domains: {…}}`, an Info.plist as shipped, one pinned domain (`--ats-domain`,
    /// `--include-subdomains`, `--ats-identities`) on the command line.
    static let ats = LibraryDefinition(
        library: .ats,
        policy: ATSPolicy.self,
        // Apple's documentation of NSPinnedDomains, NSPinnedCAIdentities, NSPinnedLeafIdentities and
        // SPKI-SHA256-BASE64 (developer.apple.com/documentation/bundleresources/information-property-list/
        // nsapptransportsecurity/nspinneddomains) gives "iOS 14.0+, iPadOS 14.0+, macOS 11.0+"; parseNSPinnedDomains
        // first ships in Security-59754, the release of iOS 14 and macOS 11. Below them the key is never read.
        availability: [
            LibraryAvailability(platform: "ios", first: PlatformVersion("14")!, reason: "NSPinnedDomains exists from "
                + "iOS 14: below it the app's Info.plist pins nothing and the system's own evaluation decides"),
            LibraryAvailability(platform: "macos", first: PlatformVersion("11")!, reason: "NSPinnedDomains exists "
                + "from macOS 11: below it the app's Info.plist pins nothing and the system's own evaluation decides"),
        ],
        inline: .decoder { value, context throws(ConfigurationError) in try ATSDefinition.inline(value, context) },
        configSettings: [],
        readNative: { path, settings throws(ConfigurationError) in
            ATSDefinition.reading(try ATSInfoPlistReader.read(path, hosts: settings.hosts))
        },
        readBuild: { build, settings throws(ConfigurationError) in
            guard let plist = build.infoPlist,
                  plist.root[ATSInfoPlistReader.transportSecurity]?.dictionary?[ATSInfoPlistReader.pinnedDomains] != nil
            else { return nil }
            return ATSDefinition.reading(try ATSInfoPlistReader.read(plist.bytes, path: plist.label,
                                                                     hosts: settings.hosts))
        },
        exportForms: [.atsPlist],
        flags: [
            LibraryFlag("--ats-domain", .option(valueName: "domain"),
                        help: "the NSPinnedDomains key (default: the host checked)."),
            LibraryFlag("--ats-identities", .option(valueName: "kind", values: ["ca", "leaf"]), help:
                "which list --pin and --pins fill, ca (NSPinnedCAIdentities: any certificate of the built chain but "
                    + "the leaf) or leaf (NSPinnedLeafIdentities: the leaf only). Default: ca."),
            LibraryFlag("--include-subdomains", .switch,
                        help: "the pinned domain names one label below it too (NSIncludesSubdomains)."),
        ],
        flagsProblem: nil,
        importFlags: [],
        policyFromFlags: { flags throws(InputError) in try ATSDefinition.policy(flags) }
    )
}

/// How ATS's policy is written in a policy file and given on the command line.
enum ATSDefinition {
    /// Which list `--pin` and `--pins` fill.
    enum IdentityKind: String {
        case ca, leaf
    }

    static let keys = ["includeSubdomains", "caIdentities", "leafIdentities"]

    /// How `config import` writes what was read: only what the inline form says exactly goes inline; anything
    /// Security reads leniently stays in the file.
    static func reading(_ read: (policy: ATSPolicy, notes: [String])) -> NativeConfiguration.Reading {
        let exact = !read.policy.domains.isEmpty && read.notes.isEmpty
        return .init(policy: read.policy, notes: read.notes,
                     entryForm: exact ? .inline { ATSDefinition.entry(read.policy) } : .config([]))
    }

    /// `{domains: {DOMAIN: {includeSubdomains, caIdentities: [pins], leafIdentities: [pins]}}}` (DESIGN §6), each pin
    /// an SPKI-SHA256-BASE64 value, bare or as pinctl writes it (`sha256/…`), exactly base64 of 32 bytes: the
    /// Info.plist is the place for anything Security reads more leniently.
    static func inline(_ value: YAMLValue, _ context: LibraryDefinition.InlineContext) throws(ConfigurationError)
        -> ATSPolicy
    {
        var domains: [ATSPinnedDomain] = []
        for (key, member) in try value.mapping(allowed: ["domains"]) where key == "domains" {
            for (name, entry) in try member.anyMapping() {
                if let problem = PolicyHostName.syntaxError(name, as: .host) { throw entry.error(problem) }
                var includes = false
                var leaf: [PublicKeyPin]?
                var ca: [PublicKeyPin]?
                for (field, setting) in try entry.mapping(allowed: keys) {
                    switch field {
                    case "includeSubdomains": includes = try setting.bool()
                    case "caIdentities": ca = try identities(setting)
                    default: leaf = try identities(setting)
                    }
                }
                if leaf == nil, ca == nil {
                    throw entry.error("\(name) pins nothing: give caIdentities or leafIdentities (an entry with "
                        + "neither is ignored by iOS)")
                }
                domains.append(ATSPinnedDomain(name: name, includesSubdomains: includes, leafIdentities: leaf,
                                               caIdentities: ca, location: "\(entry.file):\(entry.line ?? 0)"))
            }
        }
        return ATSPolicy(domains: domains, hosts: context.hosts)
    }

    private static func identities(_ value: YAMLValue) throws(ConfigurationError) -> [PublicKeyPin] {
        var pins: [PublicKeyPin] = []
        for item in try value.sequenceOrScalar() {
            let text = try item.string()
            let base64 = text.hasPrefix("sha256/") ? String(text.dropFirst("sha256/".count)) : text
            guard let bytes = Data(base64Encoded: base64), bytes.count == 32, bytes.base64EncodedString() == base64
            else {
                throw item.error("'\(text)' is not base64 of a SHA-256 digest (an SPKI-SHA256-BASE64 value, bare or "
                    + "as sha256/…)")
            }
            pins.append(PublicKeyPin(hash: [UInt8](bytes), source: item.pinSource))
        }
        return pins
    }

    /// The inline form of `policy`.
    static func entry(_ policy: ATSPolicy) -> YAMLEmitter.Node {
        .mapping([("domains", .mapping(policy.domains.map { domain in
            var keys: [(key: String, value: YAMLEmitter.Node)] = []
            if domain.includesSubdomains { keys.append(("includeSubdomains", .scalar("true"))) }
            if let ca = domain.caIdentities { keys.append(("caIdentities", list(ca))) }
            if let leaf = domain.leafIdentities { keys.append(("leafIdentities", list(leaf))) }
            return (domain.name, .mapping(keys))
        }))])
    }

    private static func list(_ pins: [PublicKeyPin]) -> YAMLEmitter.Node {
        AppEntryWriter.list(pins.map(\.text))
    }

    /// One pinned domain, `--ats-domain` or the host checked, every pin an identity of the kind `--ats-identities`
    /// names (default: CA).
    static func policy(_ flags: PolicyFlags) throws(InputError) -> LibraryDefinition.FlagPolicy {
        let loaded = try flags.loadPins()
        let pins = loaded.certificates.map(\.keyPin) + loaded.keyHashes
        let kind = flags.value("--ats-identities").flatMap(IdentityKind.init(rawValue:)) ?? .ca
        let pinnedDomain = flags.value("--ats-domain")
        let includes = flags.has("--include-subdomains")
        if pins.isEmpty {
            throw InputError("--library ats needs the identities to pin: --pins or --pin (an NSPinnedDomains entry "
                + "without them pins nothing)")
        }
        if let pinnedDomain, let problem = PolicyHostName.syntaxError(pinnedDomain, as: .host) {
            throw InputError("--ats-domain \(pinnedDomain): \(problem)")
        }
        return .init { host throws(InputError) in
            guard let name = pinnedDomain ?? host else {
                throw InputError("--library ats needs a domain to pin: --host, or --ats-domain")
            }
            return ATSPolicy(domains: [ATSPinnedDomain(
                name: name, includesSubdomains: includes, leafIdentities: kind == .leaf ? pins : nil,
                caIdentities: kind == .ca ? pins : nil, location: "the command line")])
        }
    }
}
