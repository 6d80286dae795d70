import XMLTree

/// Collects an element's `NSCMarkup`: the comments and skipped elements before each child Android reads (and the
/// comments inside the ones that hold only text), and the attributes Android does not read, by the keys
/// `NSCConfigurationWriter` writes them at. `trust-anchors` and `pin-set` are walked into (their places are
/// `trust-anchors/…`, `pin-set/…`); a nested `domain-config` keeps its own markup.
enum NSCMarkupReader {
    /// The attributes `XmlConfigSource` reads, by element; every other attribute is only kept.
    private static let read: [String: Set<String>] = [
        "base-config": ["cleartextTrafficPermitted", "hstsEnforced"],
        "domain-config": ["cleartextTrafficPermitted", "hstsEnforced"],
        "domain": ["includeSubdomains"],
        "certificates": ["src", "overridePins"],
        "pin-set": ["expiration"],
        "pin": ["digest"],
    ]
    /// The children Android reads, by parent; any other child is skipped (`XmlUtils.skipCurrentTag`) and kept here.
    private static let children: [String: Set<String>] = [
        "network-security-config": ["base-config", "domain-config", "debug-overrides"],
        "base-config": ["trust-anchors"],
        "domain-config": ["domain", "trust-anchors", "pin-set", "domain-config"],
        "trust-anchors": ["certificates"],
        "pin-set": ["pin"],
    ]
    /// Children that keep their own markup: a config its own, debug-overrides all of itself as written.
    private static let ownersOfTheirMarkup: Set = ["base-config", "domain-config", "debug-overrides"]

    static func markup(of element: XMLElement, path: String) -> NSCMarkup {
        var markup = NSCMarkup()
        let own = unread(element)
        if !own.isEmpty { markup.attributes["self"] = own }
        collect(element, prefix: "", path: path, into: &markup)
        return markup
    }

    /// The root's markup: the document's comments before it stand before `self`.
    static func rootMarkup(of root: XMLElement, path: String) -> NSCMarkup {
        var markup = markup(of: root, path: path)
        if !root.leadingComments.isEmpty { markup.items["self", default: []] += root.leadingComments.map(comment) }
        return markup
    }

    /// An element as the file wrote it, comments included. Prefixed attributes and elements (`tools:ignore`) only
    /// with `keepsPrefixed`: where the root that declares their namespace is written too.
    static func written(_ element: XMLElement, path: String, keepsPrefixed: Bool = true)
        -> NetworkSecurityConfig.WrittenElement
    {
        NetworkSecurityConfig.WrittenElement(
            name: element.name,
            attributes: (keepsPrefixed ? element.namespaceDeclarations : [])
                + element.attributes.filter { keepsPrefixed || !$0.name.contains(":") }.map { ($0.name, $0.value) },
            text: element.text.unicodeScalars.allSatisfy(\.isBlankOrNewline) ? "" : element.text,
            children: element.children.filter { keepsPrefixed || !$0.name.contains(":") }
                .map { written($0, path: path, keepsPrefixed: keepsPrefixed) },
            location: "\(path):\(element.line)", leadingComments: element.leadingComments,
            trailingComments: element.trailingComments)
    }

    private static func comment(_ text: String) -> NSCMarkup.Item { .comment(text) }

    private static func collect(_ element: XMLElement, prefix: String, path: String, into markup: inout NSCMarkup) {
        var ordinals: [String: Int] = [:]
        var pending: [NSCMarkup.Item] = []
        let known = children[element.name] ?? []
        for child in element.children {
            pending += child.leadingComments.map(comment)
            guard known.contains(child.name) else {
                pending.append(.element(written(child, path: path)))
                continue
            }
            let ordinal = ordinals[child.name, default: 0]
            ordinals[child.name] = ordinal + 1
            let walkedInto = prefix.isEmpty && (child.name == "trust-anchors" || child.name == "pin-set")
            let key = walkedInto ? child.name : NSCMarkup.key(prefix, child.name, ordinal)
            // An element holding only text (a <pin>, a <domain>): its comments are written before it.
            if child.children.isEmpty, !ownersOfTheirMarkup.contains(child.name), !walkedInto {
                pending += child.trailingComments.map(comment)
            }
            if !pending.isEmpty { markup.items[key, default: []] += pending }
            pending = []
            let attributes = ownersOfTheirMarkup.contains(child.name) ? [] : unread(child)
            if !attributes.isEmpty { markup.attributes[key] = attributes }
            if walkedInto { collect(child, prefix: child.name + "/", path: path, into: &markup) }
        }
        pending += element.trailingComments.map(comment)
        if !pending.isEmpty { markup.items[prefix + "end", default: []] += pending }
    }

    /// The attributes Android does not read, after the namespaces the element declares (a `tools:` attribute needs
    /// its `xmlns:tools` wherever that is declared).
    private static func unread(_ element: XMLElement) -> [(name: String, value: String)] {
        let known = read[element.name] ?? []
        return element.namespaceDeclarations
            + element.attributes.filter { !known.contains($0.name) }.map { ($0.name, $0.value) }
    }
}
