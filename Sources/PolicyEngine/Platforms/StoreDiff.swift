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
    /// A key both hold, in another certificate on each side (`left`'s, then `right`'s): a root re-issued, which
    /// trusts what it trusted before, not one removed and another added (GTS Root R1–R4 between API 33 and 34).
    public let reissued: [(left: Root, right: Root)]

    /// Compares the two, reading the certificates of the roots that differ.
    public init(_ left: StoreSnapshot, _ right: StoreSnapshot, in snapshots: StoreSnapshots)
        throws(StoreSnapshotError) {
        self.left = left
        self.right = right
        let leftRoots = try Self.roots(left.rootIDs.subtracting(right.rootIDs), in: snapshots)
        let rightRoots = try Self.roots(right.rootIDs.subtracting(left.rootIDs), in: snapshots)
        // A key that is on both sides: a key on one side only can have no partner.
        let rightByKey = Dictionary(rightRoots.map { ($0.pin, $0) }, uniquingKeysWith: { first, _ in first })
        var reissued: [(left: Root, right: Root)] = []
        for root in leftRoots {
            if let partner = rightByKey[root.pin] { reissued.append((root, partner)) }
        }
        let reissuedKeys = Set(reissued.map(\.left.pin))
        onlyLeft = leftRoots.filter { !reissuedKeys.contains($0.pin) }
        onlyRight = rightRoots.filter { !reissuedKeys.contains($0.pin) }
        self.reissued = reissued
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
