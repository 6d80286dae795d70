import OpenSSLWrapper
import Testing

/// When a wildcard SAN can stand for a name inside an excluded DNS subtree (expected values by hand, from
/// RFC 5280's reading of a DNS subtree and RFC 6125's one-label wildcard).
@Suite struct WildcardExclusionTests {
    @Test("Wildcard against excluded subtree", arguments: [
        // The wildcard's single label can be the excluded name itself: CVE-2025-61727's case.
        ("*.example.com", "test.example.com", true),
        ("*.EXAMPLE.com", "Test.Example.COM", true),
        // Every name of the wildcard is inside the subtree (OpenSSL sees this one).
        ("*.example.com", "example.com", true),
        ("*.test.example.com", "example.com", true),
        ("*.example.com", "", true),
        // One label cannot reach two levels down, nor into a sibling or a look-alike suffix.
        ("*.example.com", "a.test.example.com", false),
        ("*.other.example.com", "test.example.com", false),
        ("*.ample.com", "test.example.com", false),
        ("*.example.com", "testexample.com", false),
        ("*.example.com", "example.org", false),
        // A leading dot excludes only the names below.
        ("*.example.com", ".test.example.com", false),
        ("*.example.com", ".example.com", true),
        ("*.a.example.com", ".example.com", true),
        // Not a wildcard at all.
        ("test.example.com", "test.example.com", false),
        ("f*.example.com", "foo.example.com", false),
    ])
    func reaches(_ wildcard: String, _ subtree: String, _ expected: Bool) {
        #expect(WildcardExclusion.reaches(wildcard: wildcard, into: subtree) == expected)
    }
}
