/// Why the store snapshots could not be read or a platform could not be chosen; an input error (exit 2).
public struct StoreSnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }

    /// Where to get snapshots, said with every error that has none.
    static let howToBuild = "build them with scripts/build-stores.sh (docs/platform-stores.md)"

    /// No rule of `StoreLocation` found a directory: each place looked, and how to get one there.
    static func noDirectory(looked: [String]) -> StoreSnapshotError {
        StoreSnapshotError("no store snapshots: looked at \(looked.joined(separator: ", ")); \(howToBuild), then "
            + "pass --stores DIR or set PINCTL_STORES")
    }

    static func malformed(_ path: String, line: Int, _ reason: String) -> StoreSnapshotError {
        StoreSnapshotError("\(path):\(line): \(reason)")
    }
}
