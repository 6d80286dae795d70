import Testing
import TextSyntax

/// Host names are checked before any lookup or certificate check.
@Suite struct DomainNameSyntaxTests {
    @Test("host names and IP literals that are accepted", arguments: [
        "example.com", "a-b_c.example.com", "example.com.", "127.0.0.1", "::1", "[2001:db8::1]",
        String(repeating: "a", count: 63) + ".test",
    ])
    func accepted(_ name: String) {
        #expect(DomainName.syntaxError(name) == nil)
    }

    @Test("names that are refused, with the reason", arguments: [
        ("", "empty"),
        ("a b", "contains ' '"),
        ("a..b", "empty label"),
        (".a", "empty label"),
        ("bücher.de", "xn-- form"),
        ("evil\u{1B}.test", "U+1B"),
        (String(repeating: "a", count: 64) + ".test", "at most 63"),
        (Array(repeating: String(repeating: "a", count: 60), count: 5).joined(separator: "."), "at most 253"),
        ("*.example.com", "contains '*'"),
    ])
    func refused(_ name: String, _ reason: String) {
        let problem = DomainName.syntaxError(name)
        #expect(problem?.contains(reason) == true, "\(problem ?? "accepted")")
    }
}
