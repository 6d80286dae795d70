import FileAccess
import FoundationEssentials
import OpenSSLWrapper
import XMLTree

/// Reads Android's `network_security_config.xml` as XmlConfigSource.java does: its grammar, its refusals (each a
/// parse error that stops the app, so exit 2 here) and its leniencies (unknown elements and attributes skipped;
/// values decoded as `NSCValueDecoding` describes).
public enum NSCXMLReader {
    /// Reads the file; `@raw/NAME` anchors are the files `NAME.*` in the `raw/` folder beside the XML's folder. A
    /// debuggable build also reads the `debug-overrides` of `NAME_debug.xml` beside it when the file has none.
    public static func read(_ path: String, debuggable: Bool = false) throws(ConfigurationError)
        -> NetworkSecurityConfig
    {
        try read(try ConfigurationError.contents(of: path), path: path, debuggable: debuggable)
    }

    /// Reads `bytes` as the file at `path`, whose folder still locates `@raw/` resources and the `_debug` companion.
    public static func read(_ bytes: [UInt8], path: String, debuggable: Bool = false) throws(ConfigurationError)
        -> NetworkSecurityConfig
    {
        let companion = debuggable ? debugCompanion(of: path) : nil
        return try read(try element(bytes, path: path), path: path, debuggable: debuggable, resources: .folder,
                        debugCompanion: { () throws(ConfigurationError) in
                            guard let companion else { return nil }
                            return (try element(try ConfigurationError.contents(of: companion), path: companion),
                                    companion)
                        })
    }

    /// Reads the configuration `root` (parsed from XML text, or built from a build's binary XML) as the file `path`;
    /// `debugCompanion` gives the `NAME_debug` resource and its label when there is one, asked only of a debuggable
    /// build whose file has no `debug-overrides`.
    public static func read(
        _ root: XMLElement, path: String, debuggable: Bool, resources: Resources,
        debugCompanion: () throws(ConfigurationError) -> (root: XMLElement, path: String)?
    ) throws(ConfigurationError) -> NetworkSecurityConfig {
        var reader = Reader(path: path, debuggable: debuggable, resources: resources)
        let document = try reader.document(root)
        var debugAnchors = document.debugAnchors
        var debugOverrides = document.debugOverrides
        // XmlConfigSource: "If debug is true and there was no debug-overrides in the file check for an extra _debug
        // resource." A release build never reads it.
        if debuggable, !document.sawDebugOverrides, let companion = try debugCompanion() {
            var companionReader = Reader(path: companion.path, debuggable: true, keepsPrefixed: false,
                                         resources: resources)
            (debugAnchors, debugOverrides) = try companionReader.debugOverridesOnly(companion.root)
        }
        var notes = reader.notes + reader.warnings
        if document.sawDebugOverrides, !debuggable {
            notes.append("\(path): debug-overrides are ignored: a release build (give --debuggable for a debug one)")
        }
        return NetworkSecurityConfig(base: document.base, domainConfigs: document.domainConfigs,
                                     debugAnchors: debugAnchors, debugOverrides: debugOverrides, path: path,
                                     notes: notes, warnings: reader.warnings,
                                     markup: NSCMarkupReader.rootMarkup(of: root, path: path))
    }

    private static func element(_ bytes: [UInt8], path: String) throws(ConfigurationError) -> XMLElement {
        do {
            return try XMLDocumentReader.parse(bytes)
        } catch {
            throw ConfigurationError(file: path, line: error.line > 0 ? error.line : nil,
                                     message: "not XML: \(error.message)")
        }
    }

    /// What the top level of a file holds.
    struct Document {
        var base: NetworkSecurityConfig.Config?
        var domainConfigs: [NetworkSecurityConfig.Config] = []
        var debugAnchors: [NetworkSecurityConfig.CertificatesSource]?
        var debugOverrides: NetworkSecurityConfig.WrittenElement?
        var sawDebugOverrides: Bool { debugOverrides != nil }
    }

    struct Reader {
        let path: String
        let debuggable: Bool
        var seenDomains: Set<String> = []
        /// What was read but has no effect: unknown elements, skipped as Android skips them.
        var notes: [String] = []
        /// What makes the config protect less than its author meant: said with every verdict on the app.
        var warnings: [String] = []

        /// `XmlUtils.skipCurrentTag`: an element Android does not read, skipped with all it holds.
        mutating func skip(_ element: XMLElement) {
            notes.append("\(path):\(element.line): <\(element.name)> is not an element Android reads: skipped")
        }

        /// Whether prefixed attributes and elements (`tools:ignore`) are kept as written: in the file itself, whose
        /// root's namespace declarations an export writes too; not from the `_debug` companion, whose are not.
        let keepsPrefixed: Bool

        let resources: Resources

        init(path: String, debuggable: Bool, keepsPrefixed: Bool = true, resources: Resources = .folder) {
            self.path = path
            self.debuggable = debuggable
            self.keepsPrefixed = keepsPrefixed
            self.resources = resources
        }

        func error(_ element: XMLElement, _ message: String) -> ConfigurationError {
            ConfigurationError(file: path, line: element.line, keyPath: "<\(element.name)>", message: message)
        }

        /// `XmlUtils.beginDocument(parser, "network-security-config")`: any other root element is refused.
        func checkRoot(_ root: XMLElement) throws(ConfigurationError) {
            guard root.name == "network-security-config" else {
                throw error(root, "the root element must be <network-security-config>, not <\(root.name)>")
            }
        }

        mutating func document(_ root: XMLElement) throws(ConfigurationError) -> Document {
            try checkRoot(root)
            var document = Document()
            for child in root.children {
                switch child.name {
                case "base-config":
                    guard document.base == nil else { throw error(child, "Only one base-config allowed") }
                    document.base = try config(child, kind: .base)
                case "domain-config":
                    document.domainConfigs.append(try config(child, kind: .domain))
                case "debug-overrides":
                    try debugOverrides(child, into: &document)
                default:
                    // XmlUtils.skipCurrentTag: unknown elements are skipped with all they hold.
                    skip(child)
                    continue
                }
            }
            return document
        }

        /// The `_debug` companion: only its debug-overrides are read, everything else is skipped.
        mutating func debugOverridesOnly(_ root: XMLElement) throws(ConfigurationError)
            -> ([NetworkSecurityConfig.CertificatesSource]?, NetworkSecurityConfig.WrittenElement?)
        {
            try checkRoot(root)
            var document = Document()
            for child in root.children where child.name == "debug-overrides" {
                try debugOverrides(child, into: &document)
            }
            return (document.debugAnchors, document.debugOverrides)
        }

        /// The count is checked before `if (mDebugBuild)`, so a second one is refused in a release build too; a
        /// release build skips the element unread (`XmlUtils.skipCurrentTag`), so nothing inside it is checked.
        private mutating func debugOverrides(_ element: XMLElement, into document: inout Document)
            throws(ConfigurationError)
        {
            guard !document.sawDebugOverrides else { throw error(element, "Only one debug-overrides allowed") }
            document.debugOverrides = written(element)
            if debuggable { document.debugAnchors = try config(element, kind: .debug).trustAnchors }
        }

        /// The element as written, comments included, for an export to carry whatever the build reads of it.
        func written(_ element: XMLElement) -> NetworkSecurityConfig.WrittenElement {
            NSCMarkupReader.written(element, path: path, keepsPrefixed: keepsPrefixed)
        }

        enum Kind: CustomStringConvertible {
            case base, domain, debug

            var description: String {
                switch self {
                case .base: "base-config"
                case .domain: "domain-config"
                case .debug: "debug-overrides"
                }
            }
        }

        /// `parseConfigEntry`: what a config sets itself; the rest is inherited when the configs are resolved.
        mutating func config(_ element: XMLElement, kind: Kind) throws(ConfigurationError)
            -> NetworkSecurityConfig.Config
        {
            var domains: [NetworkSecurityConfig.Domain] = []
            var anchors: [NetworkSecurityConfig.CertificatesSource]?
            var pinSet: NetworkSecurityConfig.PinSet?
            var children: [NetworkSecurityConfig.Config] = []
            for child in element.children {
                switch child.name {
                case "domain":
                    guard kind == .domain else { throw error(child, "domain element not allowed in \(kind)") }
                    domains.append(try domain(child))
                case "trust-anchors":
                    guard anchors == nil else { throw error(child, "Multiple trust-anchor elements not allowed") }
                    // `boolean defaultOverridePins = configType == CONFIG_DEBUG;`
                    anchors = try trustAnchors(child, defaultOverridePins: kind == .debug)
                case "pin-set":
                    guard kind == .domain else { throw error(child, "pin-set element not allowed in \(kind)") }
                    guard pinSet == nil else { throw error(child, "Multiple pin-set elements not allowed") }
                    pinSet = try self.pinSet(child)
                case "domain-config":
                    guard kind == .domain else { throw error(child, "Nested domain-config not allowed in \(kind)") }
                    children.append(try config(child, kind: .domain))
                default:
                    skip(child)
                }
            }
            if kind == .domain, domains.isEmpty { throw error(element, "No domain elements in domain-config") }
            // "Parse config attributes. Only set values that are present, config inheritence will handle the rest."
            // Both read with getAttributeBooleanValue(i, default); the last of a repeated name would win, but XML
            // allows none.
            func flag(_ name: String, fallback: Bool) -> Bool? {
                element.attribute(name).map { NSCValueDecoding.aaptBoolean($0.value, fallback: fallback) }
            }
            return NetworkSecurityConfig.Config(
                domains: domains, trustAnchors: anchors, pinSet: pinSet, children: children,
                cleartextTrafficPermitted: flag("cleartextTrafficPermitted", fallback: true),
                hstsEnforced: flag("hstsEnforced", fallback: false), location: "\(path):\(element.line)",
                markup: kind == .debug ? NSCMarkup() : NSCMarkupReader.markup(of: element, path: path))
        }

        /// `parser.getText().trim().toLowerCase(Locale.US)`; a name given twice anywhere in the file is refused,
        /// whatever its includeSubdomains ("Do not allow any duplicates period").
        mutating func domain(_ element: XMLElement) throws(ConfigurationError) -> NetworkSecurityConfig.Domain {
            guard element.children.isEmpty else { throw error(element, "domain contains additional elements") }
            let name = NSCValueDecoding.javaTrim(element.text).lowercased()
            guard !name.isEmpty else { throw error(element, "Domain name missing") }
            if name.hasPrefix("@") || name.contains("${") {
                // Android takes the text as it is: no resource or placeholder in it is resolved, so the name matches
                // no host and its config applies to none. Read as Android reads it, and say so with every verdict.
                warnings.append("\(path):\(element.line): <domain>\(name)</domain> is a resource reference or a "
                    + "placeholder, which Android does not resolve here: it reads the text as the host name, so this "
                    + "domain-config (and its pins) applies to no host")
            } else if let problem = PolicyHostName.syntaxError(name, as: .host) {
                throw error(element, problem)
            }
            guard seenDomains.insert(name).inserted else { throw error(element, "\(name) has already been specified") }
            let includeSubdomains = NSCValueDecoding.aaptBoolean(element.attribute("includeSubdomains")?.value,
                                                                 fallback: false)
            return NetworkSecurityConfig.Domain(name: name, includeSubdomains: includeSubdomains)
        }

        /// `parseTrustAnchors`: its `<certificates>` in order; other children are skipped.
        mutating func trustAnchors(_ element: XMLElement, defaultOverridePins: Bool) throws(ConfigurationError)
            -> [NetworkSecurityConfig.CertificatesSource]
        {
            var sources: [NetworkSecurityConfig.CertificatesSource] = []
            for child in element.children where child.name != "certificates" { skip(child) }
            for child in element.children where child.name == "certificates" {
                guard let source = child.attribute("src")?.value else {
                    throw error(child, "certificates element missing src attribute")
                }
                let overridePins = NSCValueDecoding.aaptBoolean(child.attribute("overridePins")?.value,
                                                                fallback: defaultOverridePins)
                let kind: NetworkSecurityConfig.CertificatesSource.Kind
                // A reference is compiled to a resource id (`sourceId != -1`, tested first); aapt trims it.
                let reference = source.trimming(\.isBlankOrNewline)
                if reference.hasPrefix("@") {
                    kind = .resource(name: reference, certificates: try resource(reference, child))
                } else {
                    switch source {
                    case "system": kind = .system
                    case "user": kind = .user
                    // Newer AOSP (WfaCertificateSource): the Wi-Fi Alliance roots, which pinctl cannot see either.
                    case "wfa": kind = .wfa
                    default: throw error(child, "Unknown certificates src. Should be one of system|user|@resourceVal")
                    }
                }
                sources.append(NetworkSecurityConfig.CertificatesSource(kind: kind, overridePins: overridePins))
            }
            return sources
        }

        /// `@raw/NAME`: every certificate (PEM or DER) of the file `NAME.*` in `res/raw/`. A missing resource fails
        /// the app's build, an unreadable one its first connection; both are configuration errors here.
        func resource(_ reference: String, _ element: XMLElement) throws(ConfigurationError) -> [X509Certificate] {
            let parts = reference.dropFirst().split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw error(element, "\(reference) is not a resource reference such as @raw/ca")
            }
            guard !parts[0].contains(":") else {
                throw error(element, "\(reference) names another package's resource, which pinctl cannot read")
            }
            let (type, name) = (String(parts[0]), String(parts[1]))
            do throws(NSCXMLReader.ResourceFailure) {
                switch resources {
                case .build(let lookup): return try NSCXMLReader.certificates(of: lookup, type, name)
                case .folder: return try NSCXMLReader.folderCertificates(type, name, beside: path)
                }
            } catch {
                throw self.error(element, "\(reference): \(error.message)")
            }
        }
    }
}
