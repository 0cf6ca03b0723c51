import Foundation
import GatehouseDatabase

/// Settles one node's ``RequestRateLimiter`` with the other nodes through a shared table
/// (`rate_counters`, keys prefixed `request:`), so that a key's limit holds for the cluster.
///
/// Off the request path: ``settle()`` takes the hits counted since the last settlement, adds
/// them to the shared rows in one transaction (keys in order, so two nodes never wait on each
/// other's row locks in a cycle) and brings back each key's cluster total. ``run(every:)``
/// repeats that until its task is cancelled; whoever starts it owns the task and awaits it.
public final class RateLimitSettlement: Sendable {
    public let limiter: RequestRateLimiter
    let database: any Database

    public init(limiter: RequestRateLimiter, database: any Database) {
        self.limiter = limiter
        self.database = database
    }

    /// Adds this node's new hits to the shared counters and learns the cluster's totals.
    /// On failure the hits stay counted here and go with the next settlement.
    public func settle() async throws {
        let pending = limiter.takeUnsettled().sorted { $0.key < $1.key }
        guard !pending.isEmpty else { return }
        do {
            let totals = try await database.write { db in try Self.add(pending, db) }
            limiter.absorb(pending, totals: totals)
        } catch {
            limiter.restore(pending)
            throw error
        }
    }

    /// Settles every `interval` seconds until the calling task is cancelled, then once more
    /// so that the last hits reach the other nodes. Errors are passed to `failed` and retried
    /// at the next interval.
    public func run(every interval: TimeInterval, failed: @Sendable (any Error) -> Void = { _ in }) async {
        repeat {
            // A cancelled sleep returns at once, so cancelling leads straight to the last round.
            try? await Task.sleep(nanoseconds: UInt64(max(0.001, interval) * 1_000_000_000))
            do { try await settle() } catch { failed(error) }
        } while !Task.isCancelled
    }

    /// A newer window on the shared row wins: a node that settles an old window late neither
    /// resets the row nor learns a total for it.
    static func add(_ pending: [RequestRateLimiter.Pending], _ db: any DatabaseConnection) throws -> [String: Int] {
        var totals: [String: Int] = [:]
        for hit in pending {
            let row = try db.query(
                """
                INSERT INTO rate_counters (counter_key, window_start, hits) VALUES (?, ?, ?)
                ON CONFLICT (counter_key) DO UPDATE SET
                  hits = CASE WHEN rate_counters.window_start = excluded.window_start THEN rate_counters.hits + excluded.hits
                              WHEN rate_counters.window_start < excluded.window_start THEN excluded.hits
                              ELSE rate_counters.hits END,
                  window_start = CASE WHEN rate_counters.window_start < excluded.window_start THEN excluded.window_start
                                      ELSE rate_counters.window_start END
                RETURNING hits, window_start
                """,
                [.text(sharedKey(hit.key)), .integer(hit.windowStart), .integer(Int64(hit.hits))]
            ).first
            if let row, try row.get("window_start", as: Int64.self) == hit.windowStart {
                totals[hit.key] = try row.get("hits")
            }
        }
        return totals
    }

    /// The shared row's key: request counters never meet the durable ones in the same table.
    static func sharedKey(_ key: String) -> String { "request:" + key }
}
