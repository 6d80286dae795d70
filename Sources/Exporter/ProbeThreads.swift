import Glibc
import Transport

/// The threads probes block on: a probe waits on its sockets for up to its timeout, and must never hold an event
/// loop. A thread is started only when a probe finds none idle, and kept for the next probes, so there are as many as
/// ever ran at once, and never more than `limit` (--max-probes). The limit is needed besides `ProbeSlots`: a probe's
/// answer (and its slot) is handed back before its thread is idle again, so the next probe can find none idle while
/// one is about to be; it waits for that one instead of starting another, which under a steady burst added a thread
/// now and then without end.
///
/// Not NIOThreadPool: it starts all --max-probes (64) threads at once and hands work to any of them, so under load
/// every one ran probes in turn and kept its touched stack and a malloc arena: 9.5 MiB more resident memory at 8
/// concurrent scrapes (issue #22). Not Dispatch: it adds threads for blocked work only slowly (60 probes of a silent
/// target with a 3 s timeout took 17 s, the whole process at 8 threads).
// @unchecked Sendable: `state` is only touched with `condition`'s lock held.
final class ProbeThreads: @unchecked Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var idle = 0
        var threads: [JoinableThread] = []
        var stopping = false
    }

    /// Probe threads show under this name in /proc and debuggers.
    static let threadName = "pinctl-probe"

    private let limit: Int
    private let condition = ThreadCondition()
    private var state = State()

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` on a probe thread and returns its result.
    func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: body()) }
        }
    }

    /// Lets the threads finish the probes given them, then ends and joins them (OpenSSL frees a thread's state as
    /// it ends: see `JoinableThread`).
    func stop() {
        let threads = condition.withLock {
            state.stopping = true
            condition.broadcast()
            return state.threads
        }
        for thread in threads { thread.join() }
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        let wakeOne = condition.withLock {
            state.jobs.append(job)
            guard state.jobs.count > state.idle, state.threads.count < limit else { return true }
            state.threads.append(JoinableThread { [self] in work() })
            return false
        }
        // One job wakes one idle thread: a broadcast woke them all, and all but one went back to sleep, a futex call
        // and a context switch each, every probe (issue #22). After the lock is let go, or the thread woken would
        // wake only to wait for it. No wake-up is lost: a thread waits only after finding no job with the lock held,
        // and this job was there before the lock was let go.
        if wakeOne { condition.signal() }
    }

    private func work() {
        Self.nameThisThread()
        condition.lock()
        while true {
            while state.jobs.isEmpty, !state.stopping {
                state.idle += 1
                condition.wait()
                state.idle -= 1
            }
            guard !state.jobs.isEmpty else { break }
            let job = state.jobs.removeFirst()
            condition.unlock()
            job()
            condition.lock()
        }
        condition.unlock()
    }

    /// What pthread_setname_np does, which Swift's Glibc module does not export: the kernel's name of the calling
    /// thread. Only a name: a thread that cannot be named runs all the same.
    private static func nameThisThread() {
        let file = open("/proc/thread-self/comm", O_WRONLY)
        guard file >= 0 else { return }
        _ = threadName.withCString { write(file, $0, strlen($0)) }
        close(file)
    }
}
