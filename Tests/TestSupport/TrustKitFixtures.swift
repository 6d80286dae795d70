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
}
