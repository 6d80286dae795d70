import Synchronization

/// A value built the first time it is asked for, then kept: what a platform version needs (its store of roots, its
/// judge) is built only for the versions a chain is judged on, one per `VersionClass` (DESIGN §12: versions at the
/// cost of one). Threads asking at once build it once.
// Sendable: its state is a Mutex and its builder is Sendable.
final class BuiltOnFirstUse<Value: Sendable>: Sendable {
    private let build: @Sendable () -> Value
    private let built = Mutex<Value?>(nil)

    init(_ build: @escaping @Sendable () -> Value) {
        self.build = build
    }

    var value: Value {
        built.withLock { built in
            if let value = built { return value }
            let value = build()
            built = value
            return value
        }
    }
}
