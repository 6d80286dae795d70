import FileAccess
import FoundationEssentials
import XMLTree

/// Writes an Android app's own network security config back whole, not through portable rules: base-config, nested
/// domain-configs, every trust anchor (`system`, `user`, `wfa`, `@raw/…`, none) with its overridePins, the pin-sets
/// with their expiration and each pin's text as the file wrote it, `cleartextTrafficPermitted` and `hstsEnforced`
/// where the file set them, and `debug-overrides` as written (a release build never reads it, so it travels as text).
///
/// Reading the result gives the same configuration back. What the reader does not keep cannot be written: comments
/// (XMLTree reads none) and the elements and attributes Android skips (`--verbose` names those at import).
public enum NSCConfigurationWriter {
    /// The complete `network_security_config.xml` of `config`.
    public static func write(_ config: NetworkSecurityConfig) throws(ExportError) -> [UInt8] {
        var children: [XMLOutputElement.Child] = []
        if let base = config.base { children.append(.element(element("base-config", base))) }
        children += config.domainConfigs.map { .element(element("domain-config", $0)) }
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
            children.append(.element(written))
        }
        do {
            try XMLLibrary.open()
        } catch {
            throw ExportError(error.description)
        }
        do {
            return try XMLDocumentWriter.configuration(XMLOutputElement("network-security-config", children: children),
                                                       comments: [" Written by pinctl config export. "])
        } catch {
            throw ExportError("\(error.description): correct the value in the configuration")
        }
    }

    /// A base-config or domain-config: its own settings, then its nested domain-configs.
    private static func element(_ name: String, _ config: NetworkSecurityConfig.Config) -> XMLOutputElement {
        var attributes: [(name: String, value: String)] = []
        if let cleartext = config.cleartextTrafficPermitted {
            attributes.append(("cleartextTrafficPermitted", cleartext ? "true" : "false"))
        }
        if let hsts = config.hstsEnforced { attributes.append(("hstsEnforced", hsts ? "true" : "false")) }
        var children: [XMLOutputElement.Child] = config.domains.map { domain in
            let subdomains = domain.includeSubdomains ? "true" : "false"
            return .element(XMLOutputElement("domain", attributes: [("includeSubdomains", subdomains)],
                                             children: [.text(domain.name)]))
        }
        if let anchors = config.trustAnchors {
            children.append(.element(XMLOutputElement("trust-anchors", children: anchors.map { source in
                // overridePins is written only where it is set: false is the default outside debug-overrides.
                .element(XMLOutputElement("certificates", attributes: [("src", source.name)]
                    + (source.overridePins ? [("overridePins", "true")] : [])))
            })))
        }
        if let pinSet = config.pinSet {
            let expiration = pinSet.expiration.map { [("expiration", Timestamp.day($0))] } ?? []
            children.append(.element(XMLOutputElement("pin-set", attributes: expiration, children: pinSet.texts.map {
                .element(XMLOutputElement("pin", attributes: [("digest", "SHA-256")], children: [.text($0)]))
            })))
        }
        children += config.children.map { .element(element("domain-config", $0)) }
        return XMLOutputElement(name, attributes: attributes, children: children)
    }

    /// An element kept as written.
    private static func element(_ written: NetworkSecurityConfig.WrittenElement) -> XMLOutputElement {
        XMLOutputElement(written.name, attributes: written.attributes,
                         children: (written.text.isEmpty ? [] : [.text(written.text)])
                             + written.children.map { .element(element($0)) })
    }
}
