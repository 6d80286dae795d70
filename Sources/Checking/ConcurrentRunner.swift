import FoundationEssentials
import Glibc
import Synchronization
import Transport

/// Runs blocking jobs on at most `jobs` threads, handing results to `inOrder` in input order as soon as each one and
/// all before it are done, so output streams in the order given while the work overlaps.
///
/// Memory stays bounded by the window, not by the input: at most `window` items are taken and not yet handed on, a
/// result is dropped once `inOrder` has it, and the input is pulled only as slots free up (a list read from a pipe
/// is never read ahead of the work).
public enum ConcurrentRunner {
    /// Items `run` may have taken beyond the last one handed on, per thread. A silent item at the head holds back
    /// everything behind it until its timeout, and once the window is full the other threads idle too: with 2 per
    /// thread, 300 targets of which 50 were silent at --timeout 2 took a timeout per window (10 s at --jobs 32, 4 s
    /// at 128); with 8, the threads keep working behind the silent ones, at the cost of the results held meanwhile.
    public static let windowPerJob = 8

    /// Threads that work at once while none waits. Each handshake under way costs about 90 KB; against fast servers
    /// (1,000 loopback targets) 16 threads go as fast as 128 in 31 MiB instead of 42.
    public static let workingThreads = 16

    /// An item that has run this long is waiting (on a slow or silent server), not working: another thread starts
    /// beside it, up to `jobs`, so a silent target costs one thread's wait, not the run's.
    public static let waitingAfter = Duration.milliseconds(100)

    /// `next` is called on one thread at a time, never again once it has returned nil.
    ///
    /// Returns only once every worker thread has ended. OpenSSL frees a thread's own state (its random generators,
    /// its error queue) as the thread ends; a process that exits while a worker is still ending leaks that state.
    public static func run<Item: Sendable, Result: Sendable>(
        jobs: Int, next: @escaping @Sendable () -> Item?, work: @escaping @Sendable (Item) -> Result,
        inOrder: (Int, Result) -> Void
    ) {
        let jobs = max(1, jobs)
        let working = min(jobs, workingThreads)
        let state = SharedState<Item, Result>(window: jobs * windowPerJob, next: next)
        let threads = WorkerThreads()
        // A worker starts the next one once it has work, so a short list costs a thread per item, not `jobs`; one
        // started beside a waiting item ends once no more wait than there are threads beyond `working`.
        @Sendable func worker(id: Int) {
            var started = false
            while let (index, item) = state.take() {
                if !started {
                    started = true
                    threads.startAnother(worker, whileFewerThan: working)
                }
                let waiting = state.store(work(item), at: index)
                if threads.retire(id, whenMoreThan: working + waiting) { return }
            }
        }
        threads.startAnother(worker, whileFewerThan: working)
        var index = 0
        while let result = state.waitForResult(at: index, waiting: { count in
            threads.start(worker, upTo: min(jobs, working + count))
        }) {
            inOrder(index, result)
            index += 1
            threads.joinRetired()
        }
        threads.joinAll()
    }

    /// `count` jobs over indices, their results in index order; with one job, on the calling thread.
    public static func run<Result: Sendable>(count: Int, jobs: Int, work: @escaping @Sendable (Int) -> Result)
        -> [Result]
    {
        guard count > 1, jobs > 1 else { return (0..<count).map(work) }
        let indices = IndexSource(count: count)
        var results: [Result] = []
        results.reserveCapacity(count)
        run(jobs: jobs, next: indices.next, work: work, inOrder: { _, result in results.append(result) })
        return results
    }
}

/// The threads of one run, each started from the one before once it has work, or beside an item that waits; each
/// joined once it has retired, or at the end.
private final class WorkerThreads: Sendable {
    private struct Threads {
        var running: [Int: JoinableThread] = [:]
        var retired: [JoinableThread] = []
        var nextID = 0

        /// Called with the lock held, so the thread cannot retire before it is recorded as running.
        mutating func launch(_ body: @escaping @Sendable (Int) -> Void) {
            let id = nextID
            nextID += 1
            // Handshakes are I/O bound; a small stack is plenty and keeps 256 threads cheap.
            running[id] = JoinableThread(stackSize: 1 << 20) { body(id) }
        }
    }

    private let threads = Mutex(Threads())

    /// Starts one more thread, unless `limit` are running.
    func startAnother(_ body: @escaping @Sendable (Int) -> Void, whileFewerThan limit: Int) {
        threads.withLock { threads in
            if threads.running.count < limit { threads.launch(body) }
        }
    }

    /// Starts as many threads as it takes to have `limit` running.
    func start(_ body: @escaping @Sendable (Int) -> Void, upTo limit: Int) {
        threads.withLock { threads in
            while threads.running.count < limit { threads.launch(body) }
        }
    }

    /// True when thread `id` should end, as more than `needed` are running; it is then joined by `joinRetired`.
    func retire(_ id: Int, whenMoreThan needed: Int) -> Bool {
        threads.withLock { threads in
            guard threads.running.count > needed, let thread = threads.running.removeValue(forKey: id) else {
                return false
            }
            threads.retired.append(thread)
            return true
        }
    }

    /// Joins the threads that have retired: their stacks and OpenSSL's state for them go now, not at the end.
    func joinRetired() {
        let ending = threads.withLock { threads in
            defer { threads.retired.removeAll() }
            return threads.retired
        }
        for thread in ending { thread.join() }
    }

    /// Joins every thread started; none can start another by then, as every item has been taken.
    func joinAll() {
        // Recorded before a worker takes any item, hence before its results could have been waited for.
        let all = threads.withLock { threads in
            defer { threads.retired.removeAll() }
            return Array(threads.running.values) + threads.retired
        }
        for thread in all { thread.join() }
    }
}

private final class IndexSource: @unchecked Sendable {
    // Only called by the runner, one thread at a time.
    private var index = 0
    let count: Int

    init(count: Int) { self.count = count }

    func next() -> Int? {
        guard index < count else { return nil }
        index += 1
        return index - 1
    }
}

private final class SharedState<Item: Sendable, Result: Sendable>: @unchecked Sendable {
    // `input` is called under `inputLock`; every other field is guarded by `condition`, which the results are waited
    // on. A worker may wait on `condition` while holding `inputLock`, never the other way round.
    private let inputLock = Mutex(())
    private let input: () -> Item?
    private let condition = ThreadCondition()
    private let window: Int
    private var taken = 0
    private var handedOn = 0
    private var ended = false
    private var results: [Int: Result] = [:]
    /// When each item taken and not yet done was taken.
    private var started: [Int: ContinuousClock.Instant] = [:]
    private var lastLook = ContinuousClock.now

    init(window: Int, next: @escaping () -> Item?) {
        self.window = window
        input = next
    }

    /// The next item and its index, once the window has room for it; nil at the end of the input.
    func take() -> (Int, Item)? {
        inputLock.withLock { _ in takeOne() }
    }

    /// `take`, with `inputLock` held.
    private func takeOne() -> (Int, Item)? {
        condition.lock()
        while !ended, taken - handedOn >= window { condition.wait() }
        let done = ended
        condition.unlock()
        guard !done else { return nil }
        // Read outside `condition`, so a slow input never holds up storing and handing on results.
        let item = input()
        condition.lock()
        defer { condition.unlock() }
        guard let item else {
            ended = true
            condition.broadcast()
            return nil
        }
        started[taken] = .now
        taken += 1
        return (taken - 1, item)
    }

    /// Returns how many items have run longer than `waitingAfter` by now.
    func store(_ result: Result, at index: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        results[index] = result
        started[index] = nil
        condition.broadcast()
        return waitingCount(at: .now)
    }

    private func waitingCount(at now: ContinuousClock.Instant) -> Int {
        started.values.count { now - $0 >= ConcurrentRunner.waitingAfter }
    }

    /// The result at `index`, removed from the state; nil once the input has ended before it. While it waits, it
    /// calls `waiting` now and then with how many items have run longer than `waitingAfter` (outside the lock).
    func waitForResult(at index: Int, waiting: (Int) -> Void) -> Result? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = results.removeValue(forKey: index) {
                handedOn = index + 1
                condition.broadcast()
                return result
            }
            if ended, index >= taken { return nil }
            let now = ContinuousClock.now
            if now - lastLook >= ConcurrentRunner.waitingAfter / 2 {
                lastLook = now
                let count = waitingCount(at: now)
                if count > 0 {
                    condition.unlock()
                    waiting(count)
                    condition.lock()
                    continue
                }
            }
            // Woken by every result stored, or after a while to look for items that wait.
            condition.wait(for: .milliseconds(50))
        }
    }
}
