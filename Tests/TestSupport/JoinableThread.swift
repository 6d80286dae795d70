import Glibc

/// A thread that can be joined, which Foundation's `Thread` cannot.
///
/// `join()` returns once the thread has ended completely, its thread-exit cleanup included: OpenSSL frees a thread's
/// own state (random generators, error queue) there, and a test process that exits while a server thread is still
/// ending leaks that state, which LeakSanitizer reports.
struct JoinableThread: Sendable {
    private let thread: pthread_t

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
        // +1 for the thread, taken back by the thread itself.
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        // Like an allocation failure: the system is out of threads or memory.
        guard status == 0 else { fatalError("cannot start a thread: \(String(cString: strerror(status)))") }
        self.thread = thread
    }

    /// Waits until the thread has ended; call once, never from the thread itself.
    func join() {
        pthread_join(thread, nil)
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
