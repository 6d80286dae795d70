import Foundation

/// The team's data that the repository may not carry (DESIGN §12, "Where the data lives"): the built store snapshot
/// `../shared/stores` and the real server chains `../shared/chains`, beside the repository root. A test that needs
/// them fails with this message when they are missing: the facts they prove are not to be skipped quietly.
public enum SharedData {
    /// `../shared`, from the repository root.
    public static let directory = URL(fileURLWithPath: Certs.root).deletingLastPathComponent()
        .appendingPathComponent("shared").path

    /// The store snapshot directory (`pinctl-stores 1`), or an error saying where it was looked for.
    public static func stores() throws -> String {
        try required(directory + "/stores/FORMAT", "the team's store snapshot (scripts/build-stores.sh builds one)")
        return directory + "/stores"
    }

    /// The chain file `name` of `../shared/chains` (its README lists them), or an error saying where it was looked for.
    public static func chain(_ name: String) throws -> String {
        try required(directory + "/chains/" + name, "a real server chain (../shared/chains/README.md)")
    }

    @discardableResult
    private static func required(_ path: String, _ what: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw Missing(path: path, what: what) }
        return path
    }

    /// The shared data is not there: the test fails with this.
    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public let what: String

        public var description: String {
            "\(path) is missing: this test reads \(what) from ../shared beside the repository root, which the "
                + "repository may not carry (DESIGN §12); put the team's shared folder there"
        }
    }
}
