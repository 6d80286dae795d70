import FoundationEssentials
import XMLTree

/// Writes portable rules as a complete Android `network_security_config.xml`: one `domain-config` per rule, the
/// platform's default anchors (no base-config), SHA-256 pins, the expiration as `yyyy-MM-dd`.
public enum NSCXMLWriter {
    public static func write(_ policy: PortablePolicy, losses: inout ExportLosses) throws(ExportError) -> [UInt8] {
        var configs: [XMLOutputElement.Child] = []
        for rule in policy.rules {
            let includeSubdomains: Bool
            switch rule.scope {
            case .exact: includeSubdomains = false
            case .withSubdomains: includeSubdomains = true
            case .oneLabel:
                // Android has no "exactly one more label": the closest is the domain and all below it, wider.
                losses.add("*.\(rule.domain) (exactly one more label) becomes \(rule.domain) with includeSubdomains")
                includeSubdomains = true
            }
            if !rule.enforced { losses.add("report-only pinning of \(rule.domain) (Android always enforces)") }
            if !rule.certificates.isEmpty {
                losses.add("certificate pins of \(rule.domain) become pins of their keys (Android pins keys)")
            }
            let pins = rule.excluded ? [] : rule.allKeyPins
            if pins.contains(where: { $0.algorithm != .sha256 }) {
                losses.add("SHA-1 pins of \(rule.domain) (Android accepts SHA-256 only)")
            }
            let pinSet: [XMLOutputElement.Child] = pins.filter { $0.algorithm == .sha256 }.map { pin in
                .element(XMLOutputElement("pin", attributes: [("digest", "SHA-256")],
                                          children: [.text(Data(pin.hash).base64EncodedString())]))
            }
            var attributes: [(name: String, value: String)] = []
            if let expiration = rule.expiration, !rule.excluded {
                attributes.append(("expiration", Timestamp.day(expiration)))
            }
            configs.append(.element(XMLOutputElement("domain-config", children: [
                .element(XMLOutputElement("domain", attributes: [("includeSubdomains", includeSubdomains ? "true" : "false")],
                                          children: [.text(rule.domain)])),
                .element(XMLOutputElement("pin-set", attributes: attributes, children: pinSet)),
            ])))
        }
        guard !configs.isEmpty else { throw ExportError("the policy has no host rule to write as a domain-config") }
        let comments = ["Written by pinctl config export."]
            + (losses.isEmpty ? [] : ["Not expressible here, dropped: " + losses.items.joined(separator: "; ")])
        do {
            try XMLLibrary.open()
        } catch {
            throw ExportError(error.description)
        }
        do {
            return try XMLDocumentWriter.configuration(XMLOutputElement("network-security-config", children: configs),
                                                       comments: comments.map { " \($0) " })
        } catch {
            throw ExportError("\(error.description): correct the value in the policy")
        }
    }
}
