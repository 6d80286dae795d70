import Glibc

/// Runs a step that must not be cut short with SIGINT, SIGTERM and SIGHUP blocked: a signal that arrives meanwhile
/// waits, and ends pinctl as it would have once the step is done, its cleanup included.
///
/// The mask is this thread's (pthread_sigmask): a signal sent to the process goes to a thread that does not block it.
/// The steps that use this run on the main thread once every connection is over, when pinctl has no other thread left
/// to receive one.
enum DeferredSignals {
    static let deferred = [SIGINT, SIGTERM, SIGHUP]

    static func run<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signal in deferred { sigaddset(&blocked, signal) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }
}
