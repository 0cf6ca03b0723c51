import Foundation

// Safe: `entries` and `generation` are only read and written under `lock`; the rest are immutable `let`s (`clock` is
// Sendable).
/// Values this node looked up in the database, kept for a few seconds so a hot lookup (an
/// API key, an application by its key) does not cost a query per request.
///
/// An entry is dropped at once when the row changes on this node, and on the others when
/// the change's notice reaches them (see ``CacheInvalidations``); the time limit bounds how
/// stale a value can be if a notice is lost. A load that started before an invalidation
/// does not store what it read, so a value read just before a change cannot outlive it.
public final class NodeCache<Value: Sendable>: @unchecked Sendable {
    private struct Entry {
        let value: Value
        let storedAt: Date
    }

    public let name: String
    private let clock: any Clock
    private let lifetime: TimeInterval
    private let capacity: Int
    private let lock = NSLock()
    // Guarded by `lock`.
    private var entries: [String: Entry] = [:]
    private var generation = 0

    /// - Parameters:
    ///   - name: the name that invalidation notices use for this cache.
    ///   - lifetime: seconds an entry is used before it is looked up again.
    ///   - capacity: past this many entries the cache starts over, so a flood of distinct
    ///     keys cannot grow it without bound.
    public init(name: String, clock: any Clock, lifetime: TimeInterval = 5, capacity: Int = 10_000) {
        self.name = name
        self.clock = clock
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The cached value for `key`, or `load()`'s, which is kept unless it is `nil`.
    public func value(for key: String, load: () throws -> Value?) rethrows -> Value? {
        let now = clock.now
        let started: Int = lock.withLock { generation }
        if let hit = cached(key, now: now) { return hit }
        guard let loaded = try load() else { return nil }
        store(loaded, for: key, loadedIn: started, now: now)
        return loaded
    }

    /// The cached value for `key` if it is fresh.
    public func cached(_ key: String, now: Date) -> Value? {
        lock.withLock {
            guard let entry = entries[key], now.timeIntervalSince(entry.storedAt) < lifetime else { return nil }
            return entry.value
        }
    }

    /// The current generation, to pass to ``store(_:for:loadedIn:now:)`` after an async load.
    public var currentGeneration: Int { lock.withLock { generation } }

    /// Keeps `value` unless an invalidation happened since generation `started`.
    public func store(_ value: Value, for key: String, loadedIn started: Int, now: Date) {
        lock.withLock {
            guard generation == started else { return }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, storedAt: now)
        }
    }

    /// Keeps `value` whatever happened meanwhile: the caller has just written it itself.
    public func set(_ value: Value, for key: String, now: Date) {
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, storedAt: now)
        }
    }

    /// Drops one key.
    public func invalidate(_ key: String) {
        lock.withLock {
            generation &+= 1
            entries[key] = nil
        }
    }

    /// Drops everything (a tenant was disabled, or notices may have been missed).
    public func invalidateAll() {
        lock.withLock {
            generation &+= 1
            entries.removeAll()
        }
    }
}
