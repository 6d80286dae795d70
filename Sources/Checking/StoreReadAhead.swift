import PolicyEngine
import Synchronization

/// The snapshot files a command line names with `--platform`, read on threads of their own (`SnapshotPrefetch`) from
/// the start of the process, while the line is still being parsed: ArgumentParser takes about 2.6 ms of a `pinctl
/// verify` before the command runs, with the second core idle, and every platform's membership file and Apple's CT
/// log list take about as long to read (#33: versions at the cost of one).
///
/// Started from a guess at the raw arguments, so never trusted: the checking core uses what it read only when the
/// command's own parsed options find the same directory (`PlatformSettings.readAhead`), and then as any
/// `StoreSnapshots` is used: it keeps only what parsed, and a file that failed is read again where it is used, so its
/// error is the same, in the same place, as without reading ahead.
public final class StoreReadAhead: Sendable {
    /// The directory the guess found.
    public let location: StoreLocation
    /// That directory opened; nil when it cannot be (the command opens it again and gives the error).
    private let snapshots: StoreSnapshots?
    private let prefetch: Mutex<SnapshotPrefetch?>

    /// Starts reading the membership files of the platforms `selectors` name, and Apple's CT log list when they
    /// name iOS or macOS, in the directory `location` finds.
    public init(selectors: [String], location: StoreLocation) {
        self.location = location
        let snapshots = try? StoreSnapshots(location)
        self.snapshots = snapshots
        prefetch = Mutex(snapshots.map { SnapshotPrefetch(selectors, in: $0, readingFirstHere: false) })
    }

    /// The directory as read ahead, when it is the one `location` finds.
    func snapshots(for location: StoreLocation) -> StoreSnapshots? {
        location == self.location ? snapshots : nil
    }

    /// Waits for the membership files: call before looking any up.
    func readMemberships() {
        prefetch.withLock { $0?.readMemberships() }
    }

    /// Waits for every read; the process calls it before it ends, used or not, so no thread outlives it.
    public func join() {
        prefetch.withLock { prefetch in
            prefetch?.join()
            prefetch = nil
        }
    }
}
