import Foundation
import GatehouseDatabase

/// Fixed-window counters kept in the database, for what must survive a restart and be seen by
/// every node at once (failed-auth and wrong-code locks, volumes); request rate limits count in
/// memory instead (`RequestRateLimiter`). One upsert per hit: the row's window restarts when a
/// hit lands in a newer window.
public enum RateCounter {
    /// Counts one hit and returns the count in the current window and the seconds left in it.
    public static func hit(
        _ db: any DatabaseConnection, key: String, now: Date, window: TimeInterval, by amount: Int = 1
    ) throws -> (count: Int, retryAfter: Int) {
        let start = windowStart(now, window)
        let row = try db.query(
            """
            INSERT INTO rate_counters (counter_key, window_start, hits) VALUES (?, ?, ?)
            ON CONFLICT (counter_key) DO UPDATE SET
              hits = CASE WHEN rate_counters.window_start = excluded.window_start THEN rate_counters.hits + excluded.hits ELSE excluded.hits END,
              window_start = excluded.window_start
            RETURNING hits
            """,
            [.text(key), .integer(start), .integer(Int64(amount))]
        ).first
        let count: Int = try row?.get("hits") ?? amount
        return (count, retryAfter(now, start: start, window: window))
    }

    /// The count in the current window without adding to it.
    public static func peek(_ db: any DatabaseConnection, key: String, now: Date, window: TimeInterval) throws -> (count: Int, retryAfter: Int) {
        let start = windowStart(now, window)
        let row = try db.query("SELECT window_start, hits FROM rate_counters WHERE counter_key = ?", [.text(key)]).first
        guard let row, try row.get("window_start", as: Int64.self) == start else { return (0, retryAfter(now, start: start, window: window)) }
        return (try row.get("hits"), retryAfter(now, start: start, window: window))
    }

    /// The count in the current window, with the counter's key locked until the transaction
    /// ends, so that deciding on the count and the `hit` that follows are one step on every
    /// node: a second transaction for the same key waits here until the first commits, then
    /// sees its hit. The lock is the key's turn (a PostgreSQL advisory lock), not its row, so
    /// a key with no hits (every sign-in whose code was right) writes no row to lock and
    /// none to delete. On SQLite the write transaction already holds the only write lock.
    public static func lock(_ db: any DatabaseConnection, key: String, now: Date, window: TimeInterval) throws
        -> (count: Int, retryAfter: Int)
    {
        try sendLock(db, key: key, now: now, window: window).read()
    }

    /// ``lock(_:key:now:window:)`` sent without waiting, so that it travels with what the
    /// caller sends next; `read()` gives the count.
    public static func sendLock(_ db: any DatabaseConnection, key: String, now: Date, window: TimeInterval) throws -> SentLock {
        let start = windowStart(now, window)
        // Read after the turn is taken: each statement of a READ COMMITTED transaction sees
        // what committed before it began, so the holder before this one's hit is counted.
        try db.takeTurn("rate-counter\n" + key)
        let row = try db.send("SELECT window_start, hits FROM rate_counters WHERE counter_key = ?", [.text(key)])
        return SentLock(row: row, start: start, retryAfter: retryAfter(now, start: start, window: window))
    }

    /// A counter locked by ``sendLock(_:key:now:window:)`` whose count is not read yet.
    public struct SentLock {
        let row: SentStatement
        let start: Int64
        let retryAfter: Int

        /// The count in the current window and the seconds left in it.
        public func read() throws -> (count: Int, retryAfter: Int) {
            guard let row = try row.rows().first, try row.get("window_start", as: Int64.self) == start else { return (0, retryAfter) }
            return (try row.get("hits"), retryAfter)
        }

        /// Whether the counter has a row at all, of this window or an older one: while the
        /// key is locked, one that has none needs none deleted.
        public func isStored() throws -> Bool {
            try !row.rows().isEmpty
        }
    }

    /// Drops counters whose window ended long ago.
    public static func prune(_ db: any DatabaseConnection, before: Date) throws {
        try db.execute("DELETE FROM rate_counters WHERE window_start < ?", Int64(before.timeIntervalSince1970))
    }

    /// The start (seconds since 1970) of the fixed window of `window` seconds holding `now`.
    public static func windowStart(_ now: Date, _ window: TimeInterval) -> Int64 {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let size = max(1, Int64(window))
        return seconds - seconds % size
    }

    /// Whole seconds until the window that began at `start` ends (at least 1).
    public static func retryAfter(_ now: Date, start: Int64, window: TimeInterval) -> Int {
        max(1, Int((Double(start) + window - now.timeIntervalSince1970).rounded(.up)))
    }
}
