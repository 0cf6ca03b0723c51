import Foundation

// Safe: `shards` is an immutable `let`; each Shard's `entries` and `sweepAt` are only read and written under that shard's
// own `lock` (`sweep` runs with it held).
/// Request rate limits (per address, per account, per token), counted in this node's memory.
///
/// A request only asks "how many in this window, this one included?": deciding and counting
/// are one step under one lock, so two requests cannot both see room for one. Nothing is
/// written to the database, so a read endpoint writes nothing. On one node the counts are
/// exact. With several nodes, a ``RateLimitSettlement`` adds each node's hits to a shared
/// table in batches, off the request path, and brings back the cluster's totals; between
/// settlements a node sees its own new hits on top of the last total it learned, so a key can
/// overshoot by what the other nodes admitted since their last settlement.
///
/// What must survive a restart (failed-auth locks, wrong-code locks) is not counted here.
public final class RequestRateLimiter: @unchecked Sendable {
    /// A counter in one fixed window.
    struct Entry {
        var windowStart: Int64
        var windowEnd: Int64
        /// The cluster's total as of the last settlement (this node's settled hits included).
        var settled = 0
        /// Hits handed to a settlement that has not answered yet.
        var inflight = 0
        /// Hits not yet handed to a settlement.
        var unsettled = 0

        var count: Int { settled + inflight + unsettled }
    }

    /// Hits of one key that a settlement takes to the shared table.
    struct Pending {
        let key: String
        let windowStart: Int64
        let window: Int64
        let hits: Int
    }

    private final class Shard {
        let lock = NSLock()
        var entries: [String: Entry] = [:]
        /// Expired entries are swept when the shard grows past this; it doubles when a sweep
        /// frees little, so a flood of distinct keys costs amortised constant time per hit.
        var sweepAt = 1024
    }

    private let shards: [Shard]

    public init(shardCount: Int = 16) {
        shards = (0..<max(1, shardCount)).map { _ in Shard() }
    }

    /// Counts one request against `key` in the fixed window of `window` seconds that holds
    /// `now`, and returns the count with this request included and the seconds the window has
    /// left.
    public func hit(_ key: String, now: Date, window: TimeInterval) -> (count: Int, retryAfter: Int) {
        let start = RateCounter.windowStart(now, window)
        let end = start + max(1, Int64(window))
        let shard = shard(for: key)
        shard.lock.lock()
        var entry = shard.entries[key] ?? Entry(windowStart: start, windowEnd: end)
        if entry.windowStart != start { entry = Entry(windowStart: start, windowEnd: end) }
        entry.unsettled += 1
        let count = entry.count
        shard.entries[key] = entry
        if shard.entries.count >= shard.sweepAt { sweep(shard, nowSeconds: Int64(now.timeIntervalSince1970)) }
        shard.lock.unlock()
        return (count, RateCounter.retryAfter(now, start: start, window: window))
    }

    /// The count of `key` in the window that holds `now`, without counting a request.
    public func peek(_ key: String, now: Date, window: TimeInterval) -> (count: Int, retryAfter: Int) {
        let start = RateCounter.windowStart(now, window)
        let shard = shard(for: key)
        let count = shard.lock.withLock { shard.entries[key].map { $0.windowStart == start ? $0.count : 0 } ?? 0 }
        return (count, RateCounter.retryAfter(now, start: start, window: window))
    }

    /// How many keys are counted now (for tests and metrics).
    public var keyCount: Int {
        shards.reduce(0) { total, shard in total + shard.lock.withLock { shard.entries.count } }
    }

    /// Moves every unsettled hit to in-flight and returns them, for one settlement.
    func takeUnsettled() -> [Pending] {
        var taken: [Pending] = []
        for shard in shards {
            shard.lock.withLock {
                for (key, var entry) in shard.entries where entry.unsettled > 0 {
                    taken.append(Pending(
                        key: key, windowStart: entry.windowStart, window: entry.windowEnd - entry.windowStart, hits: entry.unsettled))
                    entry.inflight += entry.unsettled
                    entry.unsettled = 0
                    shard.entries[key] = entry
                }
            }
        }
        return taken
    }

    /// Takes a settlement's answer: `totals` holds the cluster's count for each settled key
    /// whose window is still current there; a key missing from it keeps only its own hits.
    func absorb(_ pending: [Pending], totals: [String: Int]) {
        for hit in pending {
            let shard = shard(for: hit.key)
            shard.lock.withLock {
                guard var entry = shard.entries[hit.key], entry.windowStart == hit.windowStart else { return }
                entry.inflight -= hit.hits
                entry.settled = totals[hit.key] ?? entry.settled + hit.hits
                shard.entries[hit.key] = entry
            }
        }
    }

    /// Puts the hits of a settlement that failed back, to go with the next one.
    func restore(_ pending: [Pending]) {
        for hit in pending {
            let shard = shard(for: hit.key)
            shard.lock.withLock {
                guard var entry = shard.entries[hit.key], entry.windowStart == hit.windowStart else { return }
                entry.inflight -= hit.hits
                entry.unsettled += hit.hits
                shard.entries[hit.key] = entry
            }
        }
    }

    private func shard(for key: String) -> Shard {
        var hasher = Hasher()
        hasher.combine(key)
        return shards[Int(UInt(bitPattern: hasher.finalize()) % UInt(shards.count))]
    }

    /// Drops entries whose window has ended: nobody asks for their count again, so hits not
    /// yet settled are of no use to other nodes either. Called with the shard's lock held.
    private func sweep(_ shard: Shard, nowSeconds: Int64) {
        shard.entries = shard.entries.filter { $0.value.windowEnd > nowSeconds }
        shard.sweepAt = max(1024, shard.entries.count * 2)
    }
}
