/// What a memo holds: values by key, the oldest going once `capacity` are held, so memory is bounded whatever a
/// long-running caller meets; and how many values were asked for again, for tests and notes on what it saved.
struct BoundedMemory<Key: Hashable, Value> {
    private var values: [Key: Value] = [:]
    /// Keys in the order first remembered: the front goes first.
    private var order: [Key] = []
    private let capacity: Int
    private(set) var hits = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The value remembered for `key`, if `stillStands` accepts it (a hit).
    mutating func value(for key: Key, where stillStands: (Value) -> Bool = { _ in true }) -> Value? {
        guard let value = values[key], stillStands(value) else { return nil }
        hits += 1
        return value
    }

    mutating func remember(_ value: Value, for key: Key) {
        guard values.updateValue(value, forKey: key) == nil else { return }
        order.append(key)
        if order.count > capacity {
            values[order.removeFirst()] = nil
        }
    }
}

extension BoundedMemory: Sendable where Key: Sendable, Value: Sendable {}
