import Synchronization

/// At most `capacity` probes at once: a probe takes a slot or is refused at once, so excess load is answered 503
/// rather than queued without limit.
final class ProbeSlots: Sendable {
    let capacity: Int
    private let state = Mutex((inFlight: 0, peak: 0))

    init(capacity: Int) { self.capacity = capacity }

    /// Takes a slot; false when every slot is taken.
    func acquire() -> Bool {
        state.withLock { state in
            guard state.inFlight < capacity else { return false }
            state.inFlight += 1
            state.peak = max(state.peak, state.inFlight)
            return true
        }
    }

    func release() { state.withLock { $0.inFlight -= 1 } }

    /// Probes running now, and the most that ever ran at once.
    var usage: (inFlight: Int, peak: Int) { state.withLock { ($0.inFlight, $0.peak) } }
}
