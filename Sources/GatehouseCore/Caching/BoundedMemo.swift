import Foundation

// Safe: `entries` is only read and written under `lock`; `capacity` is an immutable `let`.
/// Remembers what a pure function gave for an input it has seen, so that parsing the same
/// text again (an access token sent on every request, a definition's stored JSON read on
/// every page) costs a dictionary lookup. Nothing needs invalidating: the value depends on
/// the key alone. Past `capacity` entries it starts over, so a flood of distinct inputs
/// cannot grow it without bound.
public final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let capacity: Int
    private let lock = NSLock()
    private var entries: [Key: Value] = [:]

    public init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The remembered value for `key`, or `compute()`'s, remembered when it does not throw.
    public func value(for key: Key, compute: () throws -> Value) rethrows -> Value {
        if let known = cached(key) { return known }
        let value = try compute()
        remember(value, for: key)
        return value
    }

    /// The remembered value for `key`, if any.
    public func cached(_ key: Key) -> Value? {
        lock.withLock { entries[key] }
    }

    /// Remembers `value` for `key`: for a caller that remembers only what it has checked.
    public func remember(_ value: Value, for key: Key) {
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
    }

    /// How many inputs are remembered now (for tests).
    public var count: Int { lock.withLock { entries.count } }
}
