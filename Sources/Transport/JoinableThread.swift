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

extension JoinableThread {
    /// `body` of the first and the second half of `0..<count`, in that order, the second half on a new thread: for
    /// work that splits by index (roots' files to read, keys for OpenSSL to read back). Fewer than `minimum` items are
    /// done here in one call, as starting a thread costs more than they do.
    public static func inHalves<Result: Sendable>(of count: Int, minimum: Int,
                                                  _ body: @escaping @Sendable (Range<Int>) -> Result) -> [Result] {
        guard count >= minimum else { return [body(0..<count)] }
        let half = count / 2
        let second = SecondHalf<Result>()
        let thread = JoinableThread { second.result = body(half..<count) }
        let first = body(0..<half)
        thread.join()
        guard let later = second.result else { preconditionFailure("a joined thread left no result") }
        return [first, later]
    }
}

/// What the second half's thread made, read once it is joined.
// @unchecked Sendable: written by the thread before it ends and read after `join`, which orders the two.
private final class SecondHalf<Result>: @unchecked Sendable {
    var result: Result?
}

