import TextSyntax

/// The one check of the hosts a policy names: every library's hosts, domains and patterns, in the policy file and in
/// the files pinctl imports, go through `DomainName.syntaxError` here before they become part of a policy. A host
/// name holds letters, digits, `-`, `_` and dots (or is an IP literal), so nothing a host carries can turn into code,
/// markup or a terminal command in what pinctl writes from it; each library's own rules (OkHttp's, TrustKit's, the
/// Android parser's) are checked besides, where they are.
public enum PolicyHostName {
    /// What the text is, in the library's terms.
    public enum Form: Sendable {
        /// A host or a domain: the policy file's `hosts`, TrustKit's and Android's domains.
        case host
        /// An OkHttp pattern, canonical (its checks passed): a host name after a leading `*.` or `**.`.
        case okhttpPattern
        /// An Alamofire `ServerTrustManager` key. Alamofire looks a host up exactly (`evaluators[host]`), so a key
        /// that is no host name is legal Swift that never applies; the near misses pinctl warns of when it judges
        /// (a leading `*.`, a `:port`, a trailing dot, another case) are kept as the app wrote them, and anything
        /// else is refused: no host URLSession connects to is named so.
        case alamofireKey
    }

    /// Why `text` is not a host name of this form; nil when it is one.
    public static func syntaxError(_ text: String, as form: Form) -> String? {
        guard let problem = DomainName.syntaxError(text) else { return nil }
        var name = Substring(text)
        switch form {
        case .host:
            return problem
        case .okhttpPattern:
            if name.hasPrefix("**.") {
                name = name.dropFirst(3)
            } else if name.hasPrefix("*.") {
                name = name.dropFirst(2)
            }
        case .alamofireKey:
            if let colon = name.lastIndex(of: ":"), !name[..<colon].contains(":"),
               case let port = name[name.index(after: colon)...], !port.isEmpty, port.allSatisfy(\.isASCIIDigit) {
                name = name[..<colon]
            }
            if name.hasPrefix("*.") { name = name.dropFirst(2) }
        }
        guard name != Substring(text) else { return problem }
        return DomainName.syntaxError(String(name)).map { "'\(text)' is not a host name: \($0)" }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
