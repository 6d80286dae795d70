import FileAccess
import FoundationEssentials
import XMLTree

/// Writes an Android app's own network security config back whole, not through portable rules: base-config, nested
/// domain-configs, every trust anchor (`system`, `user`, `wfa`, `@raw/…`, none) with its overridePins, the pin-sets
/// with their expiration and each pin's text as the file wrote it, `cleartextTrafficPermitted` and `hstsEnforced`
/// where the file set them, and `debug-overrides` as written (a release build never reads it, so it travels as text).
/// The file's comments, the elements Android skips (TrustKit-Android's `<trustkit-config>`) and the attributes
/// Android does not read (`tools:ignore`, with the root's `xmlns:tools`) are written at their places (`NSCMarkup`);
/// what stood before a place that is gone is written at the end of its element, so nothing is lost.
///
/// Reading the result gives the same configuration back.
public enum NSCConfigurationWriter {
    /// The complete `network_security_config.xml` of `config`.
    public static func write(_ config: NetworkSecurityConfig) throws(ExportError) -> [UInt8] {
        var root = Placer(config.markup, prefix: "")
        var children: [XMLOutputElement.Child] = []
        if let base = config.base { children += root.place("base-config", element("base-config", base)) }
        for domainConfig in config.domainConfigs {
            children += root.place("domain-config", element("domain-config", domainConfig))
        }
        if let debug = config.debugOverrides {
            var written = element(debug)
            // A debuggable build read them from the `_debug` companion; in the file itself they mean the same to
            // both builds (a release build skips them either way, a debuggable one then never reads the companion).
            if !debug.location.hasPrefix(config.path + ":") {
                let file = debug.location.lastIndex(of: ":").map { String(debug.location[..<$0]) } ?? debug.location
                let origin = XMLCharacters.visible(Path.lastComponent(of: file))
                written = XMLOutputElement(written.name, attributes: written.attributes,
                                           children: [.comment(" From \(origin), the _debug companion. ")]
                                               + written.children)
            }
            children += root.place("debug-overrides", written)
        }
        children += root.rest()
        do {
            try XMLLibrary.open()
        } catch {
            throw ExportError(error.description)
        }
        let document = XMLOutputElement("network-security-config", attributes: root.attributes("self"),
                                        children: children)
        do {
            // An export of an export says once that pinctl wrote it.
            let header = " Written by pinctl config export. "
            let comments = (config.markup.items["self"] ?? []).compactMap { item -> String? in
                if case .comment(let text) = item, text != header { return text }
                return nil
            }
            return try XMLDocumentWriter.configuration(document, comments: [header] + comments)
        } catch {
            throw ExportError("\(error.description): correct the value in the configuration")
        }
    }

    /// A base-config or domain-config: its own settings, then its nested domain-configs.
    private static func element(_ name: String, _ config: NetworkSecurityConfig.Config) -> XMLOutputElement {
        var markup = Placer(config.markup, prefix: "")
        var attributes: [(name: String, value: String)] = []
        if let cleartext = config.cleartextTrafficPermitted {
            attributes.append(("cleartextTrafficPermitted", cleartext ? "true" : "false"))
        }
        if let hsts = config.hstsEnforced { attributes.append(("hstsEnforced", hsts ? "true" : "false")) }
        var children: [XMLOutputElement.Child] = []
        for domain in config.domains {
            let subdomains = domain.includeSubdomains ? "true" : "false"
            children += markup.place("domain", XMLOutputElement("domain",
                                                                attributes: [("includeSubdomains", subdomains)],
                                                                children: [.text(domain.name)]))
        }
        if let anchors = config.trustAnchors {
            var inner = Placer(config.markup, prefix: "trust-anchors/")
            var sources: [XMLOutputElement.Child] = []
            for source in anchors {
                // overridePins is written only where it is set: false is the default outside debug-overrides.
                let attributes = [("src", source.name)] + (source.overridePins ? [("overridePins", "true")] : [])
                sources += inner.place("certificates", XMLOutputElement("certificates", attributes: attributes))
            }
            children += markup.placeOnce("trust-anchors",
                                         XMLOutputElement("trust-anchors", children: sources + inner.rest()))
        }
        if let pinSet = config.pinSet {
            var inner = Placer(config.markup, prefix: "pin-set/")
            var pins: [XMLOutputElement.Child] = []
            for text in pinSet.texts {
                pins += inner.place("pin", XMLOutputElement("pin", attributes: [("digest", "SHA-256")],
                                                            children: [.text(text)]))
            }
            let expiration = pinSet.expiration.map { [("expiration", Timestamp.day($0))] } ?? []
            children += markup.placeOnce("pin-set", XMLOutputElement("pin-set", attributes: expiration,
                                                                     children: pins + inner.rest()))
        }
        for child in config.children {
            children += markup.place("domain-config", element("domain-config", child))
        }
        children += markup.rest()
        return XMLOutputElement(name, attributes: attributes + markup.attributes("self"), children: children)
    }

    /// An element kept as written, with the comments before each child and after the last.
    static func element(_ written: NetworkSecurityConfig.WrittenElement) -> XMLOutputElement {
        var children: [XMLOutputElement.Child] = written.text.isEmpty ? [] : [.text(written.text)]
        for child in written.children {
            children += child.leadingComments.map { .comment($0) } + [.element(element(child))]
        }
        children += written.trailingComments.map { .comment($0) }
        return XMLOutputElement(written.name, attributes: written.attributes, children: children)
    }

    /// Puts one element's markup back: the comments before each child it writes and that child's kept attributes,
    /// in the order written; `rest()` gives what no child took, so no comment is lost.
    private struct Placer {
        private var markup: NSCMarkup
        private let prefix: String
        private var ordinals: [String: Int] = [:]

        init(_ markup: NSCMarkup, prefix: String) {
            self.markup = markup
            self.prefix = prefix
        }

        /// The `n`th element named `name`, after its comments, with its kept attributes added.
        mutating func place(_ name: String, _ element: XMLOutputElement) -> [XMLOutputElement.Child] {
            let ordinal = ordinals[name, default: 0]
            ordinals[name] = ordinal + 1
            return take(NSCMarkup.key(prefix, name, ordinal), element)
        }

        /// `trust-anchors` or `pin-set`, of which a config has one: its key is its name.
        mutating func placeOnce(_ name: String, _ element: XMLOutputElement) -> [XMLOutputElement.Child] {
            take(name, element)
        }

        private mutating func take(_ key: String, _ element: XMLOutputElement) -> [XMLOutputElement.Child] {
            let before = markup.items.removeValue(forKey: key) ?? []
            let extra = markup.attributes.removeValue(forKey: key) ?? []
            return before.map(Self.child)
                + [.element(XMLOutputElement(element.name, attributes: element.attributes + extra,
                                             children: element.children))]
        }

        func attributes(_ key: String) -> [(name: String, value: String)] { markup.attributes[key] ?? [] }

        /// What stood before places under this prefix that no child took, then what closes the element.
        mutating func rest() -> [XMLOutputElement.Child] {
            let end = prefix + "end"
            let keys = markup.items.keys.filter {
                $0.hasPrefix(prefix) && $0 != end && $0 != "self" && !$0.dropFirst(prefix.count).contains("/")
            }.sorted()
            var left: [NSCMarkup.Item] = []
            for key in keys + [end] { left += markup.items.removeValue(forKey: key) ?? [] }
            return left.map(Self.child)
        }

        private static func child(_ item: NSCMarkup.Item) -> XMLOutputElement.Child {
            switch item {
            case .comment(let text): .comment(text)
            case .element(let written): .element(NSCConfigurationWriter.element(written))
            }
        }
    }
}
