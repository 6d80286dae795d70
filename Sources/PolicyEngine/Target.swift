import FoundationEssentials
import OpenSSLWrapper

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
    public init(parsing text: String) throws(InputError) {
        original = text
        var rest = Substring(text)
        if let scheme = rest.firstRange(of: "://") {
            guard rest[..<scheme.lowerBound].lowercased() == "https" else {
                throw InputError("target \(text): only https:// URLs can be checked")
            }
            rest = rest[scheme.upperBound...]
            if let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<pathStart] }
            if let userinfo = rest.lastIndex(of: "@") { rest = rest[rest.index(after: userinfo)...] }
        }
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw InputError("target \(text): missing ']' after an IPv6 address") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw InputError("target \(text): expected :PORT after ']'") }
                portText = after.dropFirst()
            }
            guard DomainName(host).isIPAddress, host.contains(":") else {
                throw InputError("target \(text): '\(host)' in brackets is not an IPv6 address")
            }
        } else if rest.filter({ $0 == ":" }).count > 1 {
            host = String(rest)  // a bare IPv6 literal: no port can follow without brackets
            guard DomainName(host).isIPAddress else { throw InputError("target \(text): not a host, host:port or [IPv6]:port") }
        } else if let colon = rest.firstIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)
        }
        guard !host.isEmpty else { throw InputError("target \(text): no host name") }
        if let problem = DomainName.syntaxError(host) {
            throw InputError("target \(text): \(problem)")
        }
        if let portText {
            guard let value = UInt16(portText), value > 0 else {
                throw InputError("target \(text): port '\(portText)' is not a number from 1 to 65535")
            }
            port = value
        } else {
            port = Self.defaultPort
        }
    }
}
