import Testing

/// One lookup: which `TSKPinnedDomains` key `getPinningConfigurationKeyForDomain` returns for a host.
struct TKLookup: Sendable, CustomTestStringConvertible {
    let domains: [TKDomain]
    let host: String
    let expected: String?

    init(_ domains: [TKDomain], _ host: String, _ expected: String?) {
        self.domains = domains
        self.host = host
        self.expected = expected
    }

    var testDescription: String {
        "\(domains.map(\.description).joined(separator: "; ")): \(host) → \(expected ?? "not pinned")"
    }
}

private let pins = ["X", "Y"]
private let parent = TKDomain.pinned("example.com", pins, subdomains: true)

/// TrustKit's TSKPinConfigurationTests (C7–C17 of the notes) on example.com names, and the cases its source implies.
let trustKitLookupTable: [TKLookup] = [
    TKLookup([.pinned("example.com", pins)], "www.other.com", nil),  // C7
    TKLookup([parent], "www.example.com", "example.com"),  // C8
    TKLookup([parent], "example.com", "example.com"),  // C8
    TKLookup([.pinned("www.example.com", pins, subdomains: true)], "sub.www.example.com.www.example.com",
             "www.example.com"),  // C9
    TKLookup([parent], "example.com.otherdomainexample.com", nil),  // C10
    TKLookup([.pinned("example.net", pins, subdomains: true)], "test.example.com", nil),  // C11
    TKLookup([.pinned("example.com", pins)], "www.example.com", nil),  // C13
    TKLookup([parent, .pinned("www.example.com", pins)], "www.example.com", "www.example.com"),  // C14
    TKLookup([parent, .pinned("www.example.com", pins, subdomains: true)], "foo.www.example.com",
             "www.example.com"),  // C15
    TKLookup([.pinned("www.example.com", pins, subdomains: true), parent], "foo.www.example.com",
             "www.example.com"),  // C15, the other order
    TKLookup([parent], "com", nil),  // C17
    // A suffix of the string is not a parent: ".example.com" must end the host.
    TKLookup([parent], "notexample.com", nil),
    TKLookup([.pinned("example.co.uk", pins, subdomains: true)], "www.example.co.uk", "example.co.uk"),
    // isSubdomain() requires the same registry: under Debian's list amazonaws.com is accepted, and a host whose
    // registry is s3.amazonaws.com is not its subdomain.
    TKLookup([.pinned("amazonaws.com", pins, subdomains: true)], "foo.amazonaws.com", "amazonaws.com"),
    TKLookup([.pinned("amazonaws.com", pins, subdomains: true)], "bucket.s3.amazonaws.com", nil),
    // Exclusions are entries of their own, for the exact host only.
    TKLookup([parent, .excluded("api.example.com")], "api.example.com", "api.example.com"),
    TKLookup([parent, .excluded("api.example.com")], "v1.api.example.com", "example.com"),
    // Case-sensitive (an NSDictionary key; a suffix compared exactly), no trailing-dot folding. Only the parent's
    // part of the host is compared, so the labels in front may be in any case.
    TKLookup([parent], "WWW.example.com", "example.com"),
    TKLookup([parent], "www.EXAMPLE.com", nil),
    TKLookup([.pinned("Example.com", pins, subdomains: true)], "www.example.com", nil),
    TKLookup([.pinned("Example.com", pins, subdomains: true)], "www.Example.com", "Example.com"),
    TKLookup([.pinned("api.example.com", pins)], "API.EXAMPLE.COM", nil),
    TKLookup([.pinned("api.example.com", pins)], "api.example.com.", nil),
    TKLookup([parent], "www.example.com.", nil),
    TKLookup([parent], "example.com.", nil),
    // GetRegistryLength is 0 for an IP address and for a name that is not ASCII; punycode is ASCII.
    TKLookup([parent], "10.0.0.1", nil),
    TKLookup([parent], "bücher.example.com", nil),
    TKLookup([parent], "xn--bcher-kva.example.com", "example.com"),
]
