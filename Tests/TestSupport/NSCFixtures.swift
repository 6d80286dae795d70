import Foundation

/// The Android resource folder of the NSC tests, `Tests/Fixtures/nsc/res/` (see the README.md beside it): configs in
/// `xml/`, the certificates they name as `@raw/NAME` in `raw/`, copied from `certs/libraries/`.
public enum NSCFixtures {
    public static let resources = Certs.root + "/Tests/Fixtures/nsc/res"

    /// The path of a config in `res/xml/`.
    public static func config(_ name: String) -> String { resources + "/xml/" + name }

    /// The same path relative to the repository root, as a user would type it there.
    public static func relativeConfig(_ name: String) -> String { "Tests/Fixtures/nsc/res/xml/" + name }

    /// The path of a file in `res/raw/`.
    public static func raw(_ name: String) -> String { resources + "/raw/" + name }

    /// Every config in `res/xml/`.
    public static var configNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: resources + "/xml")) ?? []).sorted()
    }
}
