import Synchronization
import Transport

/// Blocking work that may never end, run on a thread of its own and awaited so that cancelling the wait ends the
/// wait, not the work: the thread is left to finish (or block) on its own, its result dropped.
///
/// For a policy reload: what it reads comes from files an operator may get wrong (a named pipe behind a path, an input
/// some parser takes minutes over), and nothing can interrupt a thread blocked in `open` or deep in OpenSSL. On the
/// concurrency pool it held one of that pool's few threads (one per core) and made the exporter wait for it to stop.
enum DetachedWork {
    /// `body`'s result, or nil when the calling task is cancelled first.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result? {
        let handOff = HandOff<Result>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard handOff.wait(continuation) else { return }
                JoinableThread { handOff.finish(body()) }.detach()
            }
        } onCancel: {
            handOff.cancel()
        }
    }

    /// The one resumption of the waiter: by the work's result or by cancellation, whichever comes first.
    private final class HandOff<Result: Sendable>: Sendable {
        private enum State {
            case starting
            case waiting(CheckedContinuation<Result?, Never>)
            case over
        }

        private let state = Mutex(State.starting)

        /// Holds `continuation` for the result; false (having resumed it with nil) when cancelled before.
        func wait(_ continuation: CheckedContinuation<Result?, Never>) -> Bool {
            let cancelled = state.withLock { state in
                guard case .starting = state else { return true }
                state = .waiting(continuation)
                return false
            }
            if cancelled { continuation.resume(returning: nil) }
            return !cancelled
        }

        func finish(_ result: Result) { end()?.resume(returning: result) }

        func cancel() { end()?.resume(returning: nil) }

        /// Moves to `over` in one step, whatever the state: the waiter, if it was there, for the caller to resume.
        private func end() -> CheckedContinuation<Result?, Never>? {
            state.withLock { state in
                defer { state = .over }
                guard case .waiting(let continuation) = state else { return nil }
                return continuation
            }
        }
    }
}
