import FoundationEssentials

/// One item of a policy file's `apps` list, written by libyaml (`config import` prints it for pinctl.yaml). The
/// policy part is the library's own (its definition writes the inline form); this writes the entry around it.
enum AppEntryWriter {
    /// The entry, indented as the `apps:` list of a pinctl.yaml is (two spaces), ending with a line break.
    /// `path` is given as `config:`, or as `build:` when it is a build's archive.
    static func entry(name: String, library: Library, hosts: [String], path: String, isBuild: Bool = false,
                      versions: [String] = [], platforms: [String] = [], levels: (minSdk: Int?, targetSdk: Int?) = (nil, nil),
                      form: NativeConfiguration.Reading.EntryForm) throws -> String
    {
        var members: [(key: String, value: YAMLEmitter.Node)] = [("name", .scalar(name))]
        if !versions.isEmpty { members.append(("versions", list(versions))) }
        members.append(("library", .scalar(library.rawValue)))
        if !platforms.isEmpty { members.append(("platforms", list(platforms))) }
        if let minSdk = levels.minSdk { members.append(("minSdk", .scalar(String(minSdk)))) }
        if let targetSdk = levels.targetSdk { members.append(("targetSdk", .scalar(String(targetSdk)))) }
        if !hosts.isEmpty { members.append(("hosts", list(hosts))) }
        switch form {
        case .inline(let write):
            members.append(("policy", try write()))
        case .config(let settings):
            members.append((isBuild ? "build" : "config", .scalar(path)))
            members += settings.map { ($0.key, .scalar($0.value)) }
        }
        let text = try YAMLEmitter.text(of: .sequence([.mapping(members)], flow: false), indent: 2)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
    }

    /// A flow-style list of scalars, as the entry's lists are written.
    static func list(_ items: [String]) -> YAMLEmitter.Node {
        .sequence(items.map { .scalar($0) }, flow: true)
    }
}
