import Foundation

/// TrustKit's configurations as apps ship them, `Tests/Fixtures/trustkit/` (see the README.md beside them): an
/// Info.plist, the TSKConfiguration dictionary alone as XML plist, binary plist and JSON, and malformed variants.
public enum TrustKitFixtures {
    public static let directory = Certs.root + "/Tests/Fixtures/trustkit"

    /// The path of a fixture.
    public static func path(_ name: String) -> String { directory + "/" + name }

    /// The same path relative to the repository root, as a user would type it there.
    public static func relative(_ name: String) -> String { "Tests/Fixtures/trustkit/" + name }

    /// The files that hold the shop app's configuration (README.md), each in another shape.
    public static let shapes = ["Info.plist", "Info-binary.plist", "TSKConfiguration.plist",
                                "TSKConfiguration-binary.plist", "TSKConfiguration.json"]

    /// The shop app's Info.plist written inline in a pinctl.yaml app entry, by hand: `policy:` and its lines, each
    /// line indented by `indent` spaces.
    public static func inlinePolicy(indent: Int) -> String {
        func pin(_ file: String) -> String { LibraryCerts.bareBase64(of: file) }
        let lines = [
            "policy:",
            "  domains:",
            "    api.example.com: { publicKeyHashes: [\(pin("leaf.pem")), \(pin("leaf-rekeyed.pem"))] }",
            "    example.com:",
            "      includeSubdomains: true",
            "      expirationDate: 2027-06-30",
            "      publicKeyHashes: [\(pin("intermediate-ca.pem")), \(pin("other-intermediate-ca.pem"))]",
            "    status.example.com: { excludeSubdomainFromParentPolicy: true }",
            "    cdn.example.com:",
            "      enforcePinning: false",
            "      expirationDate: 2026-05-01",
            "      publicKeyHashes: [\(pin("other-root-ca.pem"))]",
        ]
        return lines.map { String(repeating: " ", count: indent) + $0 + "\n" }.joined()
    }
}
