import FoundationEssentials

/// One item of a policy file's `apps` list, written by libyaml (`config import` prints it for pinctl.yaml).
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
        var members: [(key: String, value: YAMLEmitter.Node)] = [
            ("name", .scalar(name)), ("library", .scalar(library.rawValue)),
        ]
        if !hosts.isEmpty { members.append(("hosts", list(hosts))) }
        switch content {
        case .inline(let policy):
            members.append(("policy", try inline(policy)))
        case .config(let path, let library, let settings):
            members.append(("config", .scalar(path)))
            switch library {
            case .nsc where settings.debuggable: members.append(("debuggable", .scalar("true")))
            case .afnetworking: members.append(("mode", .scalar(settings.mode.rawValue)))
            case .alamofire where settings.publicKeys: members.append(("evaluator", .scalar("public-keys")))
            default: break
            }
        }
        let text = try YAMLEmitter.text(of: .sequence([.mapping(members)], flow: false), indent: 2)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
    }

    /// The inline `policy:` of the libraries that have one in a pinctl.yaml (DESIGN §7).
    static func inline(_ policy: any TrustPolicy) throws -> YAMLEmitter.Node {
        switch policy {
        case let trustkit as TrustKitPolicy:
            return .mapping([("domains", .mapping(trustkit.domains.map { name, domain in
                var keys: [(key: String, value: YAMLEmitter.Node)] = []
                if domain.excludeSubdomainFromParentPolicy {
                    keys.append(("excludeSubdomainFromParentPolicy", .scalar("true")))
                } else {
                    keys.append(("publicKeyHashes", list(domain.publicKeyHashes.map { Data($0.hash).base64EncodedString() })))
                    if domain.includeSubdomains { keys.append(("includeSubdomains", .scalar("true"))) }
                    if !domain.enforcePinning { keys.append(("enforcePinning", .scalar("false"))) }
                    if let date = domain.expirationDate {
                        keys.append(("expirationDate", .scalar(Timestamp.day(date))))
                    }
                }
                return (name, .mapping(keys))
            }))])
        case let okhttp as OkHttpPolicy:
            // Patterns in the order first added, each with its pins; found by a dictionary, as a file may add 100k.
            var patterns: [(String, [String])] = []
            var indexOfPattern: [String: Int] = [:]
            for entry in okhttp.entries {
                if let index = indexOfPattern[entry.pattern.canonical] {
                    patterns[index].1.append(entry.pin.text)
                } else {
                    indexOfPattern[entry.pattern.canonical] = patterns.count
                    patterns.append((entry.pattern.canonical, [entry.pin.text]))
                }
            }
            return .mapping([("pins", .mapping(patterns.map { ($0.0, list($0.1)) }))])
        default:
            throw ExportError("a \(policy.library.rawValue) policy has no inline form to print")
        }
    }

    static func list(_ items: [String]) -> YAMLEmitter.Node {
        .sequence(items.map { .scalar($0) }, flow: true)
    }
}
