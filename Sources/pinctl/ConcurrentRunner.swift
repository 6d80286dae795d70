import Foundation
import OpenSSLWrapper

/// Runs `count` blocking jobs on at most `jobs` threads, handing results to `inOrder` in index order as soon as
/// each one and all before it are done, so output streams in the order given while the work overlaps.
enum ConcurrentRunner {
    /// Returns only once every worker thread has ended. OpenSSL frees a thread's own state (its random generators,
    /// its error queue) as the thread ends; a process that exits while a worker is still ending leaks that state.
    static func run<Result: Sendable, Status>(
        count: Int, jobs: Int, work: @escaping @Sendable (Int) -> Result, inOrder: (Int, Result) -> Status
    ) -> [Status] {
        let state = SharedState<Result>(count: count)
        let workers = (0..<min(jobs, count)).map { _ in
            // Handshakes are I/O bound; a small stack is plenty and keeps 256 threads cheap.
            JoinableThread(stackSize: 1 << 20) {
                while let index = state.nextIndex() {
                    state.store(work(index), at: index)
                }
            }
        }
        var statuses: [Status] = []
        for index in 0..<count {
            statuses.append(inOrder(index, state.waitForResult(at: index)))
        }
        for worker in workers { worker.join() }
        return statuses
    }
}

private final class SharedState<Result>: @unchecked Sendable {
    // Every field is guarded by `condition`.
    private let condition = NSCondition()
    private var next = 0
    private var results: [Result?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func nextIndex() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard next < results.count else { return nil }
        next += 1
        return next - 1
    }

    func store(_ result: Result, at index: Int) {
        condition.lock()
        results[index] = result
        condition.broadcast()
        condition.unlock()
    }

    func waitForResult(at index: Int) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        return results[index]!
    }
}
