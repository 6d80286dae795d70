import Glibc

/// A pthread mutex with its condition variable, timed on the monotonic clock: pinctl's one condition variable.
///
/// State that is only guarded uses the standard library's `Synchronization.Mutex`; this type is for a thread that
/// must sleep until another changes the state, with a time limit (a result in order, a name lookup that may never
/// answer). Synchronization has no condition variable, Dispatch's semaphore counts signals rather than guarding
/// state, and Foundation's `NSCondition` lives in the full Foundation, which pinctl does not link (it brings ICU's
/// data with it).
// @unchecked Sendable: the mutex and condition are only used through pthreads, which serialise them.
public final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // A change of the wall clock must not stretch or cut a timed wait.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    public func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits, the lock held, until `broadcast` or `signal`.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits, the lock held, until `broadcast`, `signal` or `duration` has passed (or a spurious wake-up).
    public func wait(for duration: Duration) {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        pthread_cond_timedwait(condition, mutex, &deadline)
    }

    /// Wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Wakes one waiter (at least one, if any waits): for a queue handing each item to one of several waiters, where
    /// waking them all would send every other one straight back to sleep.
    public func signal() { pthread_cond_signal(condition) }
}
