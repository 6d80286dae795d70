import Foundation

/// The fixture PKI in the repository's `certs/` (made by `scripts/make-certs.sh`, catalogued in certs/README.md).
public enum Certs {
    /// Absolute path of `certs/`, found from this file's own location so tests run from any working directory.
    ///
    /// This file is `<root>/Tests/TestSupport/CertsDirectory.swift`: the repository root is three levels up.
    public static let directory: String = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Tests/TestSupport
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // the repository root
        return root.appendingPathComponent("certs", isDirectory: true).path
    }()

    /// Absolute path of a fixture, e.g. `Certs.path("leaf-chain.pem")`; the file is not checked for existence.
    public static func path(_ name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }
}
