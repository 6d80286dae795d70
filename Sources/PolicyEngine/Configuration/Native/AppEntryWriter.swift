import FoundationEssentials
import Yams

/// One item of a policy file's `apps` list, written with Yams (`config import` prints it for pinctl.yaml).
public enum AppEntryWriter {
    /// How the app's policy is given.
    public enum Content {
        /// Inline (`policy:`), for the libraries that have an inline form.
        case inline(any TrustPolicy)
        /// The file the app ships (`config:`), with the settings it needs.
        case config(path: String, library: Library, settings: NativeConfiguration.Settings)
    }

    /// The entry, indented as the `apps:` list of a pinctl.yaml is (two spaces), ending with a line break.
    public static func entry(name: String, library: Library, hosts: [String], content: Content) throws -> String {
        var members: [(String, Node)] = [("name", Node(name)), ("library", Node(library.rawValue))]
        if !hosts.isEmpty { members.append(("hosts", list(hosts))) }
        switch content {
        case .inline(let policy):
            members.append(("policy", try inline(policy)))
        case .config(let path, let library, let settings):
            members.append(("config", Node(path)))
            switch library {
            case .nsc where settings.debuggable: members.append(("debuggable", Node("true")))
            case .afnetworking: members.append(("mode", Node(settings.mode.rawValue)))
            case .alamofire where settings.publicKeys: members.append(("evaluator", Node("public-keys")))
            default: break
            }
        }
        let text = try Yams.serialize(node: Node.sequence(Node.Sequence([mapping(members)])), indent: 2)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
    }

    /// The inline `policy:` of the libraries that have one in a pinctl.yaml (DESIGN §7).
    static func inline(_ policy: any TrustPolicy) throws -> Node {
        switch policy {
        case let trustkit as TrustKitPolicy:
            return mapping([("domains", mapping(trustkit.domains.map { name, domain in
                var keys: [(String, Node)] = []
                if domain.excludeSubdomainFromParentPolicy {
                    keys.append(("excludeSubdomainFromParentPolicy", Node("true")))
                } else {
                    keys.append(("publicKeyHashes", list(domain.publicKeyHashes.map { Data($0.hash).base64EncodedString() })))
                    if domain.includeSubdomains { keys.append(("includeSubdomains", Node("true"))) }
                    if !domain.enforcePinning { keys.append(("enforcePinning", Node("false"))) }
                    if let date = domain.expirationDate { keys.append(("expirationDate", Node(Timestamp.day(date)))) }
                }
                return (name, mapping(keys))
            }))])
        case let okhttp as OkHttpPolicy:
            var patterns: [(String, [String])] = []
            for entry in okhttp.entries {
                if let index = patterns.firstIndex(where: { $0.0 == entry.pattern.canonical }) {
                    patterns[index].1.append(entry.pin.text)
                } else {
                    patterns.append((entry.pattern.canonical, [entry.pin.text]))
                }
            }
            return mapping([("pins", mapping(patterns.map { ($0.0, list($0.1)) }))])
        default:
            throw ExportError("a \(policy.library.rawValue) policy has no inline form to print")
        }
    }

    static func list(_ items: [String]) -> Node {
        Node.sequence(Node.Sequence(items.map { Node($0) }, .implicit, .flow))
    }

    static func mapping(_ members: [(String, Node)]) -> Node {
        Node.mapping(Node.Mapping(members.map { (Node($0.0), $0.1) }))
    }
}
