import Synchronization

/// The last probes, newest first, for the status page.
final class RecentProbes: Sendable {
    private let limit: Int
    private let probes = Mutex([ProbeResult]())

    init(limit: Int) { self.limit = limit }

    func add(_ result: ProbeResult) {
        probes.withLock { list in
            list.insert(result, at: 0)
            if list.count > limit { list.removeLast(list.count - limit) }
        }
    }

    var newestFirst: [ProbeResult] { probes.withLock { $0 } }
}
