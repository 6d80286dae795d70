import Foundation
import PolicyEngine

/// A network security config as lines of text naming everything Android reads from it (and the debug-overrides a
/// release build keeps unread), so two readings compare whole. Locations and pin sources are left out: they say
/// where a value is written, not what it is.
enum NSCDescription {
    static func lines(_ config: NetworkSecurityConfig) -> [String] {
        var lines: [String] = []
        if let base = config.base { lines += describe(base, "base-config", depth: 0) }
        for domainConfig in config.domainConfigs { lines += describe(domainConfig, "domain-config", depth: 0) }
        if let anchors = config.debugAnchors { lines.append("debug anchors: " + describe(anchors)) }
        if let written = config.debugOverrides { lines += describe(written, depth: 0) }
        return lines
    }

    private static func describe(_ config: NetworkSecurityConfig.Config, _ name: String, depth: Int) -> [String] {
        let indent = String(repeating: "  ", count: depth)
        var lines = [indent + name + " cleartext=\(String(describing: config.cleartextTrafficPermitted))"
            + " hsts=\(String(describing: config.hstsEnforced))"]
        for domain in config.domains {
            lines.append(indent + "  domain \(domain.name) includeSubdomains=\(domain.includeSubdomains)")
        }
        if let anchors = config.trustAnchors { lines.append(indent + "  anchors: " + describe(anchors)) }
        if let pinSet = config.pinSet {
            let expiration = pinSet.expiration.map { "\($0.timeIntervalSince1970)" } ?? "never"
            lines.append(indent + "  pin-set expiration=\(expiration) pins="
                + pinSet.pins.map { Data($0.hash).base64EncodedString() }.joined(separator: ",")
                + " texts=" + pinSet.texts.joined(separator: ","))
        }
        for child in config.children { lines += describe(child, "domain-config", depth: depth + 1) }
        return lines
    }

    private static func describe(_ anchors: [NetworkSecurityConfig.CertificatesSource]) -> String {
        "[" + anchors.map { source in
            var text = source.name + (source.overridePins ? " overridePins" : "")
            if case .resource(_, let certificates) = source.kind {
                let fingerprints = certificates.map { Data($0.sha256Fingerprint).base64EncodedString() }
                text += " " + fingerprints.joined(separator: "+")
            }
            return text
        }.joined(separator: ", ") + "]"
    }

    private static func describe(_ element: NetworkSecurityConfig.WrittenElement, depth: Int) -> [String] {
        let indent = String(repeating: "  ", count: depth)
        let attributes = element.attributes.map { " \($0.name)=\"\($0.value)\"" }.joined()
        return [indent + "<\(element.name)\(attributes)> text=\(element.text.debugDescription)"]
            + element.children.flatMap { describe($0, depth: depth + 1) }
    }
}
