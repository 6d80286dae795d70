import OpenSSLWrapper

/// A host pattern of OkHttp's `CertificatePinner`: an exact host, `*.example.com` (exactly one more label) or
/// `**.example.com` (zero or more labels), held in OkHttp's canonical form.
public struct OkHttpPattern: Sendable, Hashable, CustomStringConvertible {
    /// The canonical pattern: lower case, an IPv6 literal without brackets; a trailing dot kept, as OkHttp keeps it.
    public let canonical: String

    /// Why OkHttp refuses a pattern, in OkHttp's words (`Builder.add` throws, so the app crashes at start-up).
    public struct Refusal: Error, Sendable {
        public let message: String
    }

    /// Checks and canonicalises a pattern as `CertificatePinner.Pin`'s initializer does:
    ///
    ///     require((pattern.startsWith("*.") && pattern.indexOf("*", 1) == -1) ||
    ///         (pattern.startsWith("**.") && pattern.indexOf("*", 2) == -1) || pattern.indexOf("*") == -1)
    ///         { "Unexpected pattern: $pattern" }
    ///     this.pattern = pattern.toCanonicalHost() ?: throw IllegalArgumentException("Invalid pattern: $pattern")
    public init(_ pattern: String) throws(Refusal) {
        let starsAllowed = (pattern.hasPrefix("*.") && !pattern.dropFirst(1).contains("*"))
            || (pattern.hasPrefix("**.") && !pattern.dropFirst(2).contains("*"))
            || !pattern.contains("*")
        guard starsAllowed else { throw Refusal(message: "Unexpected pattern: \(pattern)") }
        let prefix = pattern.hasPrefix("**.") ? "**." : pattern.hasPrefix("*.") ? "*." : ""
        guard let host = Self.canonicalHost(String(pattern.dropFirst(prefix.count))) else {
            throw Refusal(message: "Invalid pattern: \(pattern)")
        }
        canonical = prefix + host
    }

    public var description: String { canonical }

    /// `toCanonicalHost` for what pinctl can hold without an IDNA table: ASCII names lower-cased, IP literals in
    /// their standard form; names with a character outside `[a-z0-9._-]` (Unicode included: write its `xn--` form),
    /// empty labels, labels over 63 or names over 253 characters are invalid. A trailing dot is kept.
    public static func canonicalHost(_ host: String) -> String? {
        var text = host
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.contains(":") {
            // OkHttp accepts an IPv6 literal and writes it in RFC 5952 form; anything else with a colon (a port,
            // a URL) is invalid.
            return DomainName(text).isIPAddress ? DomainName.canonicalIPv6(text) : nil
        }
        let lowered = text.lowercased()
        guard !lowered.isEmpty, lowered.unicodeScalars.allSatisfy({ scalar in
            switch scalar {
            case "a"..."z", "0"..."9", "-", "_", ".": true
            default: false
            }
        }) else { return nil }
        let body = lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
        let labels = body.split(separator: ".", omittingEmptySubsequences: false)
        guard body.utf8.count <= 253, labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 }) else { return nil }
        return lowered
    }

    /// `Pin.matchesHostname` on a canonical host:
    ///
    ///     pattern.startsWith("**.") -> hostname ends with the suffix and (prefixLength == 0 || hostname[prefixLength - 1] == '.')
    ///     pattern.startsWith("*.")  -> hostname ends with ".suffix" && hostname.lastIndexOf('.', prefixLength - 1) == -1
    ///     else -> hostname == pattern
    public func matches(canonicalHost host: String) -> Bool {
        if canonical.hasPrefix("**.") {
            let suffix = canonical.dropFirst(3)
            guard host.hasSuffix(suffix) else { return false }
            let prefix = host.dropLast(suffix.count)
            return prefix.isEmpty || prefix.hasSuffix(".")
        }
        if canonical.hasPrefix("*.") {
            let suffix = canonical.dropFirst(1)  // ".example.com"
            guard host.hasSuffix(suffix) else { return false }
            return !host.dropLast(suffix.count).contains(".")
        }
        return host == canonical
    }
}
