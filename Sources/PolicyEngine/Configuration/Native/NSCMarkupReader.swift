import XMLTree

/// Collects an element's `NSCMarkup`: the comments before each child (and inside the ones that hold only text), and
/// the attributes Android does not read, by the keys `NSCConfigurationWriter` writes them at. `trust-anchors` and
/// `pin-set` are walked into (their places are `trust-anchors/…`, `pin-set/…`); a nested `domain-config` keeps its
/// own markup.
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

    private static let containers: Set = ["base-config", "domain-config", "debug-overrides", "trust-anchors", "pin-set"]

    private static let ownersOfTheirAttributes: Set = ["base-config", "domain-config", "debug-overrides"]

    static func markup(of element: XMLElement) -> NSCMarkup {
        var markup = NSCMarkup()
        let own = unread(element)
        if !own.isEmpty { markup.attributes["self"] = own }
        collect(element, prefix: "", into: &markup)
        return markup
    }

    /// The root's markup: the document's comments before it stand before `self`, its namespace declarations lead
    /// its attributes.
    static func rootMarkup(of root: XMLElement) -> NSCMarkup {
        var markup = markup(of: root)
        let attributes = root.namespaceDeclarations + (markup.attributes["self"] ?? [])
        if !attributes.isEmpty { markup.attributes["self"] = attributes }
        if !root.leadingComments.isEmpty { markup.comments["self", default: []] += root.leadingComments }
        return markup
    }

    private static func collect(_ element: XMLElement, prefix: String, into markup: inout NSCMarkup) {
        var ordinals: [String: Int] = [:]
        for child in element.children {
            let ordinal = ordinals[child.name, default: 0]
            ordinals[child.name] = ordinal + 1
            let walkedInto = prefix.isEmpty && (child.name == "trust-anchors" || child.name == "pin-set")
            let key = walkedInto ? child.name : NSCMarkup.key(prefix, child.name, ordinal)
            var comments = child.leadingComments
            // An element holding only text (a <pin>, a <domain>): its comments are written before it. The others
            // keep theirs: a config in its own markup, debug-overrides as written, these two below.
            if !containers.contains(child.name) { comments += child.trailingComments }
            if !comments.isEmpty { markup.comments[key, default: []] += comments }
            // A config keeps its own attributes (`self`), debug-overrides all of its as written.
            let attributes = ownersOfTheirAttributes.contains(child.name) ? [] : unread(child)
            if !attributes.isEmpty { markup.attributes[key] = attributes }
            if walkedInto {
                collect(child, prefix: child.name + "/", into: &markup)
                if !child.trailingComments.isEmpty {
                    markup.comments[child.name + "/end", default: []] += child.trailingComments
                }
            }
        }
        if prefix.isEmpty, !element.trailingComments.isEmpty {
            markup.comments["end", default: []] += element.trailingComments
        }
    }

    private static func unread(_ element: XMLElement) -> [(name: String, value: String)] {
        let known = read[element.name] ?? []
        return element.attributes.filter { !known.contains($0.name) }.map { ($0.name, $0.value) }
    }
}
