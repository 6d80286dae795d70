import OpenSSLWrapper
import PolicyEngine
import Transport

/// The snapshot files a run names, read on threads of their own while the caller reads the first platform's: the
/// membership files of the other platforms named, and Apple's CT log list when iOS or macOS is named. Judging on
/// every platform reads four membership files and the CT list (DESIGN §12: versions at the cost of one), and these
/// reads depend on nothing but the directory.
///
/// Nothing read here is trusted more than a read on the caller's thread: `StoreSnapshots` keeps what parsed, and a
/// file that failed is read again where it is used, so its error is given there, in the same words and order as
/// without prefetching.
// Not Sendable: started, and joined, by one thread.
final class SnapshotPrefetch {
    private let snapshots: StoreSnapshots
    /// The platform whose membership file the caller reads (`readMemberships`).
    private let first: String?
    private var memberships: JoinableThread?
    private var ctLogs: JoinableThread?

    /// Starts reading what `selectors` name beyond their first platform in `snapshots`; with `readingFirstHere` false,
    /// the first platform's file too, for a caller with other work to do meanwhile (`StoreReadAhead`).
    init(_ selectors: [String], in snapshots: StoreSnapshots, readingFirstHere: Bool = true) {
        var platforms: [String] = []
        for text in selectors {
            guard let selector = try? PlatformSelector(parsing: text), !selector.isSystem,
                  !platforms.contains(selector.platform)
            else { continue }
            let platform = selector.platform
            platforms.append(platform)
        }
        self.snapshots = snapshots
        first = readingFirstHere ? platforms.first : nil
        let others = readingFirstHere ? platforms.dropFirst() : platforms[...]
        memberships = others.isEmpty ? nil : JoinableThread {
            for platform in others { _ = try? snapshots.snapshots(of: platform) }
        }
        ctLogs = platforms.contains("ios") || platforms.contains("macos")
            ? JoinableThread { _ = try? snapshots.appleCTLogs() } : nil
    }

    /// Reads the first platform's membership file on this thread (unless `readingFirstHere` was false), then waits
    /// for the others': call before looking any up.
    func readMemberships() {
        if let first { _ = try? snapshots.snapshots(of: first) }
        memberships?.join()
        memberships = nil
    }

    /// Waits for every read; a caller that goes on without the results calls it too, so no thread outlives it.
    func join() {
        memberships?.join()
        memberships = nil
        ctLogs?.join()
        ctLogs = nil
    }
}

extension SnapshotPrefetch {
    /// The outlines of the roots `ids`, in order, half of them read on another thread: a snapshot directory without
    /// an index has every root of every version named read for its names (Android's 156, every platform's 368).
    static func outlines(_ ids: [String], in snapshots: StoreSnapshots)
        -> [Result<CertificateOutline, StoreSnapshotError>]
    {
        // Fewer roots than this are read faster than a thread starts.
        JoinableThread.inHalves(of: ids.count, minimum: 32) { range in
            range.map { index -> Result<CertificateOutline, StoreSnapshotError> in
                do throws(StoreSnapshotError) {
                    return .success(try snapshots.rootOutline(ids[index]))
                } catch {
                    return .failure(error)
                }
            }
        }.flatMap { $0 }
    }
}
