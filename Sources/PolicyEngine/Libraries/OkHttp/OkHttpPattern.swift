/// A host pattern of OkHttp's `CertificatePinner`: an exact host, `*.example.com` (exactly one more label) or
/// `**.example.com` (zero or more labels), held in OkHttp's canonical form.
public struct OkHttpPattern: Sendable, Hashable, CustomStringConvertible {
    /// The canonical pattern: lower case, an IPv6 literal without brackets; a trailing dot kept, as OkHttp keeps it.
    public let canonical: String

    /// Why a pattern or a pin cannot be used: OkHttp's own exception (`Builder.add` throws, so the app crashes when it
    /// builds its pinner), or something OkHttp would read that pinctl cannot.
    public struct Refusal: Error, Sendable {
        /// OkHttp's message, word for word (`Unexpected pattern: *.*.x`), or pinctl's sentence when `byOkHttp` is
        /// false.
        public let message: String
        /// Whether OkHttp itself throws; false when OkHttp would accept the input and pinctl cannot model it.
        public let byOkHttp: Bool

        public init(okhttp message: String) {
            self.message = message
            byOkHttp = true
        }

        public init(pinctl message: String) {
            self.message = message
            byOkHttp = false
        }

        /// "OkHttp refuses it: MESSAGE", or pinctl's sentence alone.
        public var explanation: String { byOkHttp ? "OkHttp refuses it: \(message)" : message }
    }

    /// Checks and canonicalises a pattern as `CertificatePinner.Pin`'s initializer does, the whole pattern at once (its
    /// `*.` or `**.` too: `*` passes `toCanonicalHost`, and the 253-character limit counts it):
    ///
    ///     require((pattern.startsWith("*.") && pattern.indexOf("*", 1) == -1) ||
    ///         (pattern.startsWith("**.") && pattern.indexOf("*", 2) == -1) || pattern.indexOf("*") == -1)
    ///         { "Unexpected pattern: $pattern" }
    ///     this.pattern = pattern.toCanonicalHost() ?: throw IllegalArgumentException("Invalid pattern: $pattern")
    public init(_ pattern: String) throws(Refusal) {
        // Byte by byte, as Kotlin compares chars: a star followed by a combining mark is still a star.
        let bytes = Array(pattern.utf8)
        let star = UInt8(ascii: "*")
        let starsAllowed = (bytes.starts(with: Array("*.".utf8)) && !bytes.dropFirst(1).contains(star))
            || (bytes.starts(with: Array("**.".utf8)) && !bytes.dropFirst(2).contains(star))
            || !bytes.contains(star)
        guard starsAllowed else { throw Refusal(okhttp: "Unexpected pattern: \(pattern)") }
        switch OkHttpHost.canonicalize(pattern) {
        case .host(let canonical): self.canonical = canonical
        case .invalid: throw Refusal(okhttp: "Invalid pattern: \(pattern)")
        case .needsIDNA: throw Refusal(pinctl: Self.idnaSentence(pattern, what: "pattern"))
        }
    }

    public var description: String { canonical }

    /// `toCanonicalHost` (see `OkHttpHost`): nil when OkHttp refuses the host, or when it is not ASCII (OkHttp maps
    /// those through UTS #46 and punycode; pinctl asks for the `xn--` form).
    public static func canonicalHost(_ host: String) -> String? {
        if case .host(let canonical) = OkHttpHost.canonicalize(host) { return canonical }
        return nil
    }

    /// Why `host` cannot be an OkHttp URL's host (`HttpUrl` refuses what `toCanonicalHost` refuses); nil when it can.
    public static func hostError(_ host: String) -> String? {
        switch OkHttpHost.canonicalize(host) {
        case .host: nil
        case .invalid: "OkHttp's HttpUrl refuses it: Invalid URL host: \"\(host)\""
        case .needsIDNA: idnaSentence(host, what: "host")
        }
    }

    private static func idnaSentence(_ text: String, what: String) -> String {
        "\(text) is not ASCII: OkHttp maps a \(what) through UTS #46 and punycode, which pinctl does not carry; "
            + "write it in its xn-- form"
    }

    /// `Pin.matchesHostname` on a canonical host:
    ///
    ///     pattern.startsWith("**.") ->
    ///         hostname.regionMatches(hostname.length - suffixLength, pattern, 3, suffixLength) &&
    ///             (prefixLength == 0 || hostname[prefixLength - 1] == '.')
    ///     pattern.startsWith("*.") ->
    ///         hostname.regionMatches(hostname.length - suffixLength, pattern, 1, suffixLength) &&
    ///             hostname.lastIndexOf('.', prefixLength - 1) == -1
    ///     else -> hostname == pattern
    ///
    /// Case-sensitive, byte for byte (`regionMatches`, `==`): both sides are canonical, so case never differs.
    public func matches(canonicalHost host: String) -> Bool {
        let host = Array(host.utf8)
        let pattern = Array(canonical.utf8)
        let dot = UInt8(ascii: ".")
        if pattern.starts(with: Array("**.".utf8)) {
            // "With ** empty prefixes match so exclude the dot from regionMatches()."
            let suffix = pattern.dropFirst(3)
            guard host.count >= suffix.count, host.suffix(suffix.count).elementsEqual(suffix) else { return false }
            let prefix = host.dropLast(suffix.count)
            return prefix.isEmpty || prefix.last == dot
        }
        if pattern.starts(with: Array("*.".utf8)) {
            // "With * there must be a prefix so include the dot in regionMatches()": one label, possibly empty.
            let suffix = pattern.dropFirst(1)
            guard host.count >= suffix.count, host.suffix(suffix.count).elementsEqual(suffix) else { return false }
            return !host.dropLast(suffix.count).contains(dot)
        }
        return host == pattern
    }
}
