import FoundationEssentials

/// An HTTP proxy as curl reads `--proxy` and the proxy variables: `[http://][USER[:PASS]@]HOST[:PORT][/]`.
public struct ProxyServer: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: UInt16
    /// Percent-decoded, as curl decodes them; sent as `Proxy-Authorization: Basic`.
    let user: String?
    let password: String?
    /// Where the setting came from, for messages: "--proxy", "HTTPS_PROXY".
    public let origin: String

    /// curl's default proxy port.
    static let defaultPort: UInt16 = 1080

    /// "proxy 10.0.0.1:3128" for messages: never the credentials.
    public var description: String { "proxy " + TargetName(host: host, port: port).description }

    /// Whether credentials are sent.
    public var hasCredentials: Bool { user != nil }

    /// Parses a proxy setting; `origin` names the flag or variable in errors.
    public init(parsing text: String, origin: String) throws(ProxySettingError) {
        self.origin = origin
        var rest = Substring(text)
        if let schemeEnd = rest.firstRange(of: "://") {
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "http" else {
                throw ProxySettingError("\(origin) \(Self.redacted(text)): a \(scheme):// proxy is not supported; pinctl speaks to "
                    + "HTTP proxies only (http://HOST:PORT)")
            }
            rest = rest[schemeEnd.upperBound...]
        }
        // The path (and anything after it) means nothing for a proxy, as in curl.
        if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<slash] }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let decodedUser = Self.percentDecoded(parts[0]),
                let decodedPassword = Self.percentDecoded(parts.count > 1 ? parts[1] : "")
            else {
                throw ProxySettingError("\(origin): the proxy credentials hold a malformed %-escape")
            }
            user = decodedUser
            password = decodedPassword
        }
        let (host, port) = try Self.hostAndPort(rest, origin: origin, text: text)
        self.host = host
        self.port = port
        self.user = user
        self.password = password
    }

    /// `HOST`, `HOST:PORT`, `[V6]` or `[V6]:PORT`.
    private static func hostAndPort(_ text: Substring, origin: String, text whole: String)
        throws(ProxySettingError) -> (String, UInt16)
    {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw ProxySettingError("\(origin) \(Self.redacted(whole)): an IPv6 address needs its closing ']'")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw ProxySettingError("\(origin) \(Self.redacted(whole)): unexpected text after ']'")
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = text
        }
        guard !host.isEmpty else { throw ProxySettingError("\(origin) \(Self.redacted(whole)): no proxy host") }
        guard let portText else { return (String(host), defaultPort) }
        guard let port = UInt16(portText), port > 0 else {
            throw ProxySettingError("\(origin) \(Self.redacted(whole)): '\(portText)' is not a port from 1 to 65535")
        }
        return (String(host), port)
    }

    /// A URL's user or password with its %-escapes decoded (RFC 3986 §2.1); nil for a malformed escape or bytes
    /// that are not UTF-8, as curl refuses them.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = text.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard rest.count >= 2, let high = hexValue(rest.removeFirst()), let low = hexValue(rest.removeFirst())
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        Character(Unicode.Scalar(digit)).hexDigitValue.map(UInt8.init)
    }

    /// The setting with any password replaced, for messages.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        let start = text.firstRange(of: "://")?.upperBound ?? text.startIndex
        return String(text[..<start]) + "…" + String(text[at...])
    }

    /// The `Proxy-Authorization` header value, when credentials were given.
    package var authorization: String? {
        guard let user else { return nil }
        return "Basic " + Data("\(user):\(password ?? "")".utf8).base64EncodedString()
    }
}

/// A proxy setting that cannot be used: an input error (exit 2) naming the flag or variable.
public struct ProxySettingError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
