import Foundation

/// OkHttp's pinning as apps ship it, `Tests/Fixtures/okhttp/` (see the README.md there): Kotlin, Java and a text list
/// of the same pins from `certs/libraries/`, and malformed variants.
public enum OkHttpFixtures {
    public static let directory = Certs.root + "/Tests/Fixtures/okhttp"

    /// The path of a fixture.
    public static func path(_ name: String) -> String { directory + "/" + name }

    /// The same path relative to the repository root, as a user would type it there.
    public static func relative(_ name: String) -> String { "Tests/Fixtures/okhttp/" + name }

    /// The entries every well-formed fixture holds, as `(pattern, pin)` in order, written by hand from the fixtures
    /// with the pins the openssl CLI computed (certs/libraries/spki-pins.txt).
    public static let entries: [(pattern: String, pin: String)] = [
        ("api.example.com", LibraryCerts.pin(of: "leaf.pem")),
        ("api.example.com", LibraryCerts.pin(of: "leaf-rekeyed.pem")),
        ("**.example.com", LibraryCerts.sha1Pin(of: "intermediate-ca.pem")),
        ("**.example.com", LibraryCerts.pin(of: "other-root-intermediate-ca.pem")),
    ]
}
