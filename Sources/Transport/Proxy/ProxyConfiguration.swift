import Glibc

/// Which proxy, if any, a connection goes through: `--proxy`, or the environment as curl reads it.
///
/// curl's rules (lib/url.c, lib/noproxy.c): for a URL of scheme S it reads `s_proxy`, then `S_PROXY` (never
/// `HTTP_PROXY`, which a CGI request could set), then `all_proxy`, then `ALL_PROXY`; an empty value means no proxy.
/// `no_proxy`, then `NO_PROXY`, lists hosts reached directly. An explicit `--proxy` wins over the variables, and
/// `--proxy ''` turns them off.
public struct ProxyConfiguration: Sendable {
    /// `--proxy` as given: nil when not given, "" to use no proxy at all.
    let explicit: String?
    let environment: [String: String]

    public init(explicit: String?, environment: [String: String]) {
        self.explicit = explicit
        self.environment = environment
    }

    /// What a TLS target (an `https://` URL to curl) goes through; nil for a direct connection.
    public func proxy(forTLSHost host: String) throws(ProxySettingError) -> ProxyServer? {
        try proxy(scheme: "https", host: host)
    }

    /// What a plain `http://` fetch (OCSP, CRL) goes through; nil for a direct connection.
    public func proxy(forHTTPHost host: String) throws(ProxySettingError) -> ProxyServer? {
        try proxy(scheme: "http", host: host)
    }

    private func proxy(scheme: String, host: String) throws(ProxySettingError) -> ProxyServer? {
        if let explicit {
            return explicit.isEmpty || bypasses(host) ? nil : try ProxyServer(parsing: explicit, origin: "--proxy")
        }
        var names = [scheme + "_proxy"]
        if scheme != "http" { names.append(scheme.uppercased() + "_PROXY") }
        names += ["all_proxy", "ALL_PROXY"]
        guard let name = names.first(where: { environment[$0] != nil }), let value = environment[name],
            !value.isEmpty, !bypasses(host)
        else { return nil }
        return try ProxyServer(parsing: value, origin: name)
    }

    /// Whether `no_proxy` (or `NO_PROXY`) names the host.
    func bypasses(_ host: String) -> Bool {
        guard let list = environment["no_proxy"] ?? environment["NO_PROXY"] else { return false }
        return NoProxyList(list).matches(host)
    }
}

/// curl's `no_proxy` matching: `*` alone matches everything; otherwise comma- (or blank-) separated entries, each a
/// domain that matches itself and its subdomains (a leading or trailing dot ignored), or for an IP address an
/// address or CIDR block (`10.0.0.0/8`, `::1`, `fd00::/8`).
struct NoProxyList {
    let text: String

    init(_ text: String) { self.text = text }

    func matches(_ rawHost: String) -> Bool {
        if text == "*" { return true }
        var host = rawHost
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let entries = text.split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
        if let address = IPBytes(host) {
            return entries.contains { entry in
                let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
                guard let network = IPBytes(parts[0].trimmingBrackets), network.bytes.count == address.bytes.count
                else { return false }
                // As curl reads it (atoi): a missing, zero or unreadable prefix length compares the whole address.
                let bits = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
                return address.matches(network, bits: bits == 0 ? address.bytes.count * 8 : bits)
            }
        }
        var name = Substring(host.lowercased())
        if name.hasSuffix(".") { name = name.dropLast() }
        return entries.contains { entry in
            var domain = Substring(entry.lowercased())
            if domain.hasSuffix(".") { domain = domain.dropLast() }
            if domain.hasPrefix(".") { domain = domain.dropFirst() }
            guard !domain.isEmpty else { return false }
            return name == domain || name.hasSuffix("." + domain)
        }
    }
}

/// An IPv4 or IPv6 address as bytes, for CIDR matching.
struct IPBytes {
    let bytes: [UInt8]

    init?(_ text: String) {
        guard !text.utf8.contains(0) else { return nil }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// Whether the first `bits` bits equal the network's; a prefix longer than the address matches nothing.
    func matches(_ network: IPBytes, bits: Int) -> Bool {
        guard bits >= 0, bits <= bytes.count * 8 else { return false }
        let whole = bits / 8
        guard bytes.prefix(whole).elementsEqual(network.bytes.prefix(whole)) else { return false }
        let rest = bits % 8
        guard rest > 0 else { return true }
        let mask = UInt8(0xFF) << (8 - rest)
        return bytes[whole] & mask == network.bytes[whole] & mask
    }
}

extension String {
    fileprivate var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
