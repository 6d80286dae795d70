import Foundation

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
            WorkerThread {
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

/// A thread that can be joined, which Foundation's `Thread` cannot.
private struct WorkerThread {
    private let thread: pthread_t

    init(_ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // Handshakes are I/O bound; a small stack is plenty and keeps 256 threads cheap.
        pthread_attr_setstacksize(&attributes, 1 << 20)
        // +1 for the thread, taken back by the thread itself.
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        // Like an allocation failure: the system is out of threads or memory.
        guard status == 0 else { fatalError("cannot start a worker thread: \(String(cString: strerror(status)))") }
        self.thread = thread
    }

    func join() {
        pthread_join(thread, nil)
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
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
