/// Why the store snapshots could not be read or a platform could not be chosen; an input error (exit 2).
public struct StoreSnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }

    /// Where to get snapshots, said with every error that has none.
    static let howToBuild = "build them with scripts/build-stores.sh (docs/platform-stores.md)"

    static func noDirectory() -> StoreSnapshotError {
        StoreSnapshotError("no store snapshots: pass --stores DIR or set PINCTL_STORES; \(howToBuild)")
    }

    static func malformed(_ path: String, line: Int, _ reason: String) -> StoreSnapshotError {
        StoreSnapshotError("\(path):\(line): \(reason)")
    }
}
