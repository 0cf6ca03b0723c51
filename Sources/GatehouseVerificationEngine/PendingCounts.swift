import Foundation
import GatehouseDatabase

/// What a start or a verification counts without deciding anything by it: the pumping
/// budgets without a cap, and the guard's hourly and ten-second counts of codes sent and
/// verified. Kept in node memory once the transaction commits and written in batches
/// (``VerificationEngine/flushCounts()``, which the delivery dispatcher calls on every pass),
/// so neither writes a counter row: the seven upserts a start to a phone made were a quarter
/// of its cost on PostgreSQL.
///
/// The truth is the database plus what each node holds. This node's own reads (the guard's
/// look at its prefix, a budget's count when an operator has just set its cap) add what it
/// holds; other nodes see it once flushed, a dispatcher pass later. A read of the rows and a
/// look at what the node holds are two moments, so a flush that commits between them makes
/// one batch count twice or not at all for that read (the guard's sent and unjudged codes
/// move together, so the share it judges barely does). A crash, or a connection lost with a
/// flush's COMMIT, loses what was not written: statistics, never a decision (capped periods
/// still take their slot in the start's transaction).
struct HeldCounts: Sendable {
    /// Periods without a cap, by counter key, with the end of each.
    var volume: [(key: String, end: Date)] = []
    /// The range and hour a code to a phone was sent in.
    var conversion: (applicationID: String, range: PhoneRange, hour: Date)?
    /// The ten-second bucket of that code, where the guard watches.
    var recent: (applicationID: String, prefix: String, bucket: Date)?
    /// What happened to the code: sent (a start), or verified (a report or sign-in).
    var codes = PendingCounts.Codes(sent: 1, verified: 0)
}

// Safe: `waiting` and `flushing` are only read and written under `lock`.
final class PendingCounts: @unchecked Sendable {
    /// A prefix or a country of one application.
    struct RangeKey: Hashable {
        let applicationID: String
        let value: String
    }

    /// Codes sent and verified.
    struct Codes: Sendable {
        var sent = 0
        var verified = 0

        static func + (left: Codes, right: Codes) -> Codes {
            Codes(sent: left.sent + right.sent, verified: left.verified + right.verified)
        }
    }

    /// Codes of a prefix or country, by the hour they were sent; and, for a prefix, by the
    /// ten-second bucket.
    struct Sent {
        var hours: [Date: Codes] = [:]
        var buckets: [Date: Codes] = [:]

        mutating func add(_ other: Sent) {
            for (hour, codes) in other.hours { hours[hour] = (hours[hour] ?? Codes()) + codes }
            for (bucket, codes) in other.buckets { buckets[bucket] = (buckets[bucket] ?? Codes()) + codes }
        }
    }

    /// Counts not yet in the database.
    struct Tally {
        var volume: [String: (hits: Int, end: Date)] = [:]
        var prefixes: [RangeKey: Sent] = [:]
        var countries: [RangeKey: Sent] = [:]

        var isEmpty: Bool { volume.isEmpty && prefixes.isEmpty && countries.isEmpty }

        mutating func add(_ counts: HeldCounts) {
            for period in counts.volume { volume[period.key, default: (0, period.end)].hits += 1 }
            if let code = counts.conversion {
                prefixes[RangeKey(applicationID: code.applicationID, value: code.range.prefix), default: Sent()]
                    .add(Sent(hours: [code.hour: counts.codes]))
                countries[RangeKey(applicationID: code.applicationID, value: code.range.country), default: Sent()]
                    .add(Sent(hours: [code.hour: counts.codes]))
            }
            if let code = counts.recent {
                prefixes[RangeKey(applicationID: code.applicationID, value: code.prefix), default: Sent()].add(Sent(buckets: [code.bucket: counts.codes]))
            }
        }

        mutating func add(_ other: Tally) {
            for (key, count) in other.volume { volume[key, default: (0, count.end)].hits += count.hits }
            for (key, sent) in other.prefixes { prefixes[key, default: Sent()].add(sent) }
            for (key, sent) in other.countries { countries[key, default: Sent()].add(sent) }
        }

        /// The upserts that add the tally to `shard`'s rows, a few hundred rows a statement.
        func writes(shard: Int) -> [PendingWrite] {
            let shard = SQLValue.integer(Int64(shard))
            let volumeRows = volume.map { key, count in [.text(key), shard, .integer(Int64(count.hits)), count.end.sqlValue] as [SQLValue] }
            let hourRows = [("prefix", prefixes), ("country", countries)].flatMap { scope, ranges in
                ranges.flatMap { key, sent in
                    sent.hours.map { hour, codes in
                        [.text(key.applicationID), .text(scope), .text(key.value), hour.sqlValue, shard] + codes.sqlValues
                    }
                }
            }
            let bucketRows = prefixes.flatMap { key, sent in
                sent.buckets.map { bucket, codes in
                    [.text(key.applicationID), .text(key.value), bucket.sqlValue, shard] + codes.sqlValues
                }
            }
            return Self.upserts(
                "INSERT INTO verification_volume_shards (counter_key, shard, hits, period_end) VALUES",
                "ON CONFLICT (counter_key, shard) DO UPDATE SET hits = verification_volume_shards.hits + excluded.hits",
                row: "(?, ?, ?, ?)", volumeRows)
                + Self.upserts(
                    "INSERT INTO verification_conversion_counts (application_id, scope, value, hour_start, shard, sent, verified) VALUES",
                    """
                    ON CONFLICT (application_id, scope, value, hour_start, shard) DO UPDATE
                    SET sent = verification_conversion_counts.sent + excluded.sent, verified = verification_conversion_counts.verified + excluded.verified
                    """,
                    row: "(?, ?, ?, ?, ?, ?, ?)", hourRows)
                + Self.upserts(
                    "INSERT INTO verification_recent_counts (application_id, prefix, bucket_start, shard, sent, verified) VALUES",
                    """
                    ON CONFLICT (application_id, prefix, bucket_start, shard) DO UPDATE
                    SET sent = verification_recent_counts.sent + excluded.sent, verified = verification_recent_counts.verified + excluded.verified
                    """,
                    row: "(?, ?, ?, ?, ?, ?)", bucketRows)
        }

        /// Rows per statement: far below either database's limit on a statement's parameters.
        static let rowsPerStatement = 500

        private static func upserts(_ insert: String, _ conflict: String, row: String, _ rows: [[SQLValue]]) -> [PendingWrite] {
            stride(from: 0, to: rows.count, by: rowsPerStatement).map { start in
                let chunk = rows[start..<min(rows.count, start + rowsPerStatement)]
                return PendingWrite(
                    "\(insert) \(Array(repeating: row, count: chunk.count).joined(separator: ", "))\n\(conflict)", chunk.flatMap { $0 })
            }
        }
    }

    private let lock = NSLock()
    private var waiting = Tally()
    /// What a flush is writing: still counted by this node's reads until it has committed.
    private var flushing = Tally()

    func add(_ counts: HeldCounts) {
        lock.withLock { waiting.add(counts) }
    }

    /// Moves what is waiting to the flush in hand; nil when nothing waits. One flush at a time.
    func take() -> Tally? {
        lock.withLock {
            guard !waiting.isEmpty else { return nil }
            flushing = waiting
            waiting = Tally()
            return flushing
        }
    }

    /// Ends the flush in hand: what it wrote leaves this node, or, when it failed, waits again.
    func settle(committed: Bool) {
        lock.withLock {
            if !committed { waiting.add(flushing) }
            flushing = Tally()
        }
    }

    /// Hits of a period not yet in the database.
    func hits(of key: String) -> Int {
        lock.withLock { (waiting.volume[key]?.hits ?? 0) + (flushing.volume[key]?.hits ?? 0) }
    }

    /// A prefix's codes not yet in the database: per hour from `hour` on, and since `bucket`.
    func codes(applicationID: String, prefix: String, hoursFrom hour: Date, bucketsFrom bucket: Date) -> (hours: [Date: Codes], recent: Codes) {
        let key = RangeKey(applicationID: applicationID, value: prefix)
        var sent = lock.withLock {
            var both = waiting.prefixes[key] ?? Sent()
            if let flushing = flushing.prefixes[key] { both.add(flushing) }
            return both
        }
        sent.hours = sent.hours.filter { $0.key >= hour }
        return (sent.hours, sent.buckets.filter { $0.key >= bucket }.values.reduce(Codes(), +))
    }
}

extension PendingCounts.Codes {
    var sqlValues: [SQLValue] { [.integer(Int64(sent)), .integer(Int64(verified))] }
}
