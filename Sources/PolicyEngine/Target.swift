import FoundationEssentials
import TextSyntax

/// A server to connect to: `host`, `host:port`, `[v6]:port`, a bare IPv6 literal, or an `https://` URL.
public struct Target: Sendable, Hashable, CustomStringConvertible {
    /// As the user wrote it.
    public let original: String
    /// A DNS name, an IPv4 literal, or an IPv6 literal without brackets.
    public let host: String
    public let port: UInt16

    public static let defaultPort: UInt16 = 443

    /// `host:port`, with brackets around an IPv6 literal.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Parses a target as written on the command line or in a policy file; the error says what is wrong with it.
    /// `excerpted` for a line of a file that may be anything (`--targets-from`): the error then quotes only an
    /// excerpt of the line (`UntrustedText`), and none of a part after its start (`user:TOKEN@host` has TOKEN@host
    /// where a port would be).
    public init(parsing text: String, excerpted: Bool = false) throws(InputError) {
        original = text
        let shown = excerpted ? UntrustedText.excerpt(text) : text
        var rest = Substring(text)
        if let scheme = rest.firstRange(of: "://") {
            guard rest[..<scheme.lowerBound].lowercased() == "https" else {
                throw InputError("target \(shown): only https:// URLs can be checked")
            }
            rest = rest[scheme.upperBound...]
            if let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<pathStart] }
            if let userinfo = rest.lastIndex(of: "@") { rest = rest[rest.index(after: userinfo)...] }
        }
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw InputError("target \(shown): missing ']' after an IPv6 address") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw InputError("target \(shown): expected :PORT after ']'") }
                portText = after.dropFirst()
            }
            guard DomainName(host).isIPAddress, host.contains(":") else {
                throw InputError("target \(shown): " + (excerpted ? "what is" : "'\(host)'")
                    + " in brackets is not an IPv6 address")
            }
        } else if rest.filter({ $0 == ":" }).count > 1 {
            host = String(rest)  // a bare IPv6 literal: no port can follow without brackets
            guard DomainName(host).isIPAddress else { throw InputError("target \(shown): not a host, host:port or [IPv6]:port") }
        } else if let colon = rest.firstIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)
        }
        guard !host.isEmpty else { throw InputError("target \(shown): no host name") }
        if let problem = DomainName.syntaxError(host) {
            // DomainName quotes the host whole, or its first 40 characters.
            let redacted = UntrustedText.redacting(host.prefix(40), in: UntrustedText.redacting(host, in: problem))
            throw InputError("target \(shown): \(excerpted ? redacted : problem)")
        }
        if let portText {
            guard let value = UInt16(portText), value > 0 else {
                let port = excerpted ? "the port" : "port '\(portText)'"
                throw InputError("target \(shown): \(port) is not a number from 1 to 65535")
            }
            port = value
        } else {
            port = Self.defaultPort
        }
    }
}
