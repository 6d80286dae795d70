import Glibc

/// A thread that can be joined, which Foundation's `Thread` cannot.
///
/// `join()` returns once the thread has ended completely, its thread-exit cleanup included: OpenSSL frees a thread's
/// own state (random generators, error queue) there, and a process that exits while a thread doing TLS is still
/// ending leaks that state, which LeakSanitizer reports.
public struct JoinableThread: Sendable {
    private let thread: pthread_t

    /// Starts `body` on a new thread; `stackSize` in bytes, or the system's default when nil.
    public init(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        // +1 for the thread, taken back by the thread itself.
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        // Like an allocation failure: the system is out of threads or memory.
        guard status == 0 else { fatalError("cannot start a thread: \(String(cString: strerror(status)))") }
        self.thread = thread
    }

    /// Waits until the thread has ended; call once, never from the thread itself.
    public func join() {
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own, never joined: for a blocking call (getaddrinfo) whose caller may give up on
    /// it at a deadline.
    public func detach() {
        pthread_detach(thread)
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
