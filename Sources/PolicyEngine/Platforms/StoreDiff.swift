import OpenSSLWrapper

/// The roots one store snapshot has and another lacks, both ways (`pinctl stores diff`).
public struct StoreDiff: Sendable {
    /// One root as `stores diff` names it.
    public struct Root: Sendable, Equatable {
        public let subject: String
        /// `sha256/BASE64` of its key.
        public let pin: String
    }

    public let left: StoreSnapshot
    public let right: StoreSnapshot
    /// In `left`, not in `right`, by subject.
    public let onlyLeft: [Root]
    /// In `right`, not in `left`, by subject.
    public let onlyRight: [Root]

    /// Compares the two, reading the certificates of the roots that differ.
    public init(_ left: StoreSnapshot, _ right: StoreSnapshot, in snapshots: StoreSnapshots)
        throws(StoreSnapshotError) {
        self.left = left
        self.right = right
        onlyLeft = try Self.roots(left.rootIDs.subtracting(right.rootIDs), in: snapshots)
        onlyRight = try Self.roots(right.rootIDs.subtracting(left.rootIDs), in: snapshots)
    }

    private static func roots(_ ids: Set<String>, in snapshots: StoreSnapshots) throws(StoreSnapshotError) -> [Root] {
        var roots: [Root] = []
        for id in ids {
            let certificate = try snapshots.root(id)
            roots.append(Root(subject: certificate.subject, pin: PinFormat.pin(of: certificate)))
        }
        return roots.sorted { ($0.subject, $0.pin) < ($1.subject, $1.pin) }
    }
}
