import Foundation
import GatehouseDatabase

// Safe: `invalidators`, `receivedCount` and `waiters` are only read and written under `lock`; the invalidator closures run
// outside it, on any thread, and only call a NodeCache's `invalidate`/`invalidateAll`, which take the cache's lock.
/// Tells this node's caches, and through PostgreSQL the other nodes', that a cached row
/// changed.
///
/// A change announces itself inside its write transaction with ``announce(_:cache:key:)``:
/// on PostgreSQL that is a `pg_notify`, which the server delivers to every listening node
/// when (and only if) the transaction commits. After the commit the writer calls
/// ``drop(cache:key:)`` so this node forgets at once. A node's listener passes each notice
/// it receives to ``received(_:)``, and calls ``dropEverything()`` when it had to reconnect,
/// since notices sent while it was away are lost. `key` `nil` means the whole cache.
public final class CacheInvalidations: @unchecked Sendable {
    /// The PostgreSQL channel every node of a deployment sends and listens on.
    public static let defaultChannel = "gatehouse_cache"
    /// This deployment's channel (tests give each pair of nodes one of their own).
    public let channel: String
    /// The cache name that stands for every cache.
    public static let everyCache = "*"

    private let lock = NSLock()
    // Guarded by `lock`.
    private var invalidators: [String: [(String?) -> Void]] = [:]
    private var receivedCount = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    public init(channel: String = CacheInvalidations.defaultChannel) {
        self.channel = channel
    }

    /// Registers a cache so notices for its name reach it, and those for `otherNames` too: a
    /// cache built from another engine's rows (the catalogue from the plans that gate it) is
    /// dropped by that engine's notices without the engine knowing of it.
    public func register<Value>(_ cache: NodeCache<Value>, alsoFor otherNames: [String] = []) {
        lock.withLock {
            for name in [cache.name] + otherNames {
                invalidators[name, default: []].append { [weak cache] key in
                    if let key { cache?.invalidate(key) } else { cache?.invalidateAll() }
                }
            }
        }
    }

    /// Announces, inside a write transaction, that `key` of `cache` changes.
    public func announce(_ db: any DatabaseConnection, cache: String, key: String?) throws {
        guard let notify = db.dialect.notify else { return }
        // Delivered at commit: nothing waits for its answer.
        try db.send(notify, [.text(channel), .text(Self.payload(cache: cache, key: key))])
    }

    /// Forgets `key` of `cache` on this node.
    public func drop(cache: String, key: String?) {
        if cache == Self.everyCache { return dropEverything() }
        let targets = lock.withLock { invalidators[cache] ?? [] }
        targets.forEach { $0(key) }
    }

    /// Forgets every cached value on this node.
    public func dropEverything() {
        let targets = lock.withLock { invalidators.values.flatMap { $0 } }
        targets.forEach { $0(nil) }
    }

    /// Takes a notice from the listener.
    public func received(_ payload: String) {
        if let (cache, key) = Self.parse(payload) { drop(cache: cache, key: key) }
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            receivedCount += 1
            let ready = waiters.filter { $0.count <= receivedCount }.map(\.continuation)
            waiters.removeAll { $0.count <= receivedCount }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    /// Waits until this node has received `count` notices in all (tests await this instead
    /// of sleeping).
    public func waitForReceived(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> Bool in
                if receivedCount >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    static func payload(cache: String, key: String?) -> String { cache + "\n" + (key ?? "*") }

    static func parse(_ payload: String) -> (String, String?)? {
        guard let split = payload.firstIndex(of: "\n") else { return nil }
        let key = String(payload[payload.index(after: split)...])
        return (String(payload[..<split]), key == "*" ? nil : key)
    }
}
