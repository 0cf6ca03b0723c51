import Foundation
import GatehouseDatabase

/// Codes sent and verified per application, prefix or country, and UTC hour, each node
/// counting on a row of its own (`VerificationEngine.nodeShard`, written by `PendingCounts`)
/// so busy countries do not queue on one row. Verified codes
/// count in the hour they were sent, so an hour's share verified is that hour's conversion.
enum ConversionCounts {
    struct Window: Equatable {
        var sent: Double
        var verified: Double

        mutating func add(_ other: Window) {
            sent += other.sent
            verified += other.verified
        }
    }

    static func hourStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
    }

    /// Adds counts to `shard`'s rows (seeding history; starts and verifications count through
    /// ``PendingCounts``).
    static func add(
        _ db: any DatabaseConnection, applicationID: String, range: PhoneRange, hour: Date, shard: Int, sent: Int = 0, verified: Int = 0
    ) throws {
        var tally = PendingCounts.Tally()
        tally.add(HeldCounts(conversion: (applicationID, range, hour), codes: .init(sent: sent, verified: verified)))
        try db.send(tally.writes(shard: shard))
    }

    /// The sliding hour of one prefix (this hour's counts and the previous hour's, weighted by
    /// the part of it still inside the sliding hour), with the codes sent to it since
    /// `unverifiedSince` and not verified yet (``RecentCounts``), read in one statement: under
    /// READ COMMITTED each statement has a snapshot of its own, and codes committed between two
    /// reads would be in the hour's count but not in the unverified one, judged the moment
    /// they were sent.
    /// The primary key finds the prefix's rows; see `verification.011` for why no other index
    /// may compete with it (the scope is a literal, so the countries' partial index cannot).
    static func lastHour(_ db: any DatabaseConnection, applicationID: String, prefix: String, now: Date, unverifiedSince: Date) throws
        -> (window: Window, unverified: Int)
    {
        try sendLastHour(db, applicationID: applicationID, prefix: prefix, now: now, unverifiedSince: unverifiedSince).read()
    }

    /// ``lastHour(_:applicationID:prefix:now:unverifiedSince:)`` sent, to be read when its answer is wanted.
    static func sendLastHour(_ db: any DatabaseConnection, applicationID: String, prefix: String, now: Date, unverifiedSince: Date) throws
        -> SentLastHour
    {
        let hour = hourStart(now)
        let sent = try db.send(
            lastHourOfPrefix,
            [.text(applicationID), .text(prefix), unverifiedSince.sqlValue, .text(applicationID), .text(prefix),
             hour.addingTimeInterval(-3600).sqlValue])
        return SentLastHour(sent: sent, now: now)
    }

    /// A prefix's last hour on its way (``sendLastHour(_:applicationID:prefix:now:unverifiedSince:)``).
    struct SentLastHour {
        let sent: SentStatement
        let now: Date

        func read() throws -> (window: Window, unverified: Int) {
            var window = Window(sent: 0, verified: 0)
            var unverified = 0
            for row in try sent.rows() {
                window.add(try weighted(row, now: now))
                unverified = try row.get("unverified")
            }
            return (window, unverified)
        }
    }

    static let lastHourOfPrefix = """
        SELECT hour_start, SUM(sent) AS sent, SUM(verified) AS verified,
          (SELECT COALESCE(SUM(r.sent - r.verified), 0) FROM verification_recent_counts r
           WHERE r.application_id = ? AND r.prefix = ? AND r.bucket_start >= ?) AS unverified
        FROM verification_conversion_counts WHERE application_id = ? AND scope = 'prefix' AND value = ? AND hour_start >= ?
        GROUP BY hour_start
        """

    struct Key: Hashable {
        let scope: String
        let value: String
    }

    /// The sliding hour of every prefix and country at once.
    static func lastHour(_ db: any DatabaseConnection, applicationID: String, now: Date) throws -> [Key: Window] {
        let sql = """
            SELECT scope, value, hour_start, SUM(sent) AS sent, SUM(verified) AS verified FROM verification_conversion_counts
            WHERE application_id = ? AND hour_start >= ? GROUP BY scope, value, hour_start
            """
        var windows: [Key: Window] = [:]
        for row in try db.query(sql, [.text(applicationID), hourStart(now).addingTimeInterval(-3600).sqlValue]) {
            windows[Key(scope: try row.get("scope"), value: try row.get("value")), default: Window(sent: 0, verified: 0)]
                .add(try weighted(row, now: now))
        }
        return windows
    }

    /// One hour's row of counts as its share of the sliding hour before `now`: all of this
    /// hour's, and of the previous hour's the part still inside the sliding hour.
    private static func weighted(_ row: Row, now: Date) throws -> Window {
        weighted(hour: try row.get("hour_start"), sent: try row.get("sent"), verified: try row.get("verified"), now: now)
    }

    /// An hour's counts as their share of the sliding hour before `now`.
    static func weighted(hour start: Date, sent: Int, verified: Int, now: Date) -> Window {
        let hour = hourStart(now)
        let share = start < hour ? 1 - now.timeIntervalSince(hour) / 3600 : 1
        return Window(sent: Double(sent) * share, verified: Double(verified) * share)
    }

    /// The first hour the application's codes were counted in, if any.
    static func firstHour(_ db: any DatabaseConnection, applicationID: String) throws -> Date? {
        try db.queryOne(
            "SELECT MIN(hour_start) AS first FROM verification_conversion_counts WHERE application_id = ? AND scope = 'country'", applicationID)?
            .get("first", as: Date?.self)
    }

    /// A whole scope's hours; the scope is written as a literal, so that the countries' are
    /// read by their partial index (`verification.011`).
    static func beforeOfScope(_ scope: String) -> String {
        precondition(scope == "country" || scope == "prefix", "a scope of the conversion counts")
        return """
            SELECT COALESCE(SUM(sent), 0) AS sent, COALESCE(SUM(verified), 0) AS verified FROM verification_conversion_counts
            WHERE application_id = ? AND scope = '\(scope)' AND hour_start >= ? AND hour_start < ?
            """
    }

    static let beforeOfValue = """
        SELECT COALESCE(SUM(sent), 0) AS sent, COALESCE(SUM(verified), 0) AS verified FROM verification_conversion_counts
        WHERE application_id = ? AND scope = ? AND value = ? AND hour_start >= ? AND hour_start < ?
        """

    /// Totals over the `days` before the hour preceding `hour`; of one value, or (nil) of all.
    static func before(_ db: any DatabaseConnection, applicationID: String, scope: String, value: String?, hour: Date, days: Int) throws -> Window {
        let from = hour.addingTimeInterval(-Double(days) * 86_400).sqlValue
        let to = hour.addingTimeInterval(-3600).sqlValue
        let row = if let value {
            try db.queryOne(beforeOfValue, [.text(applicationID), .text(scope), .text(value), from, to])
        } else {
            try db.queryOne(beforeOfScope(scope), [.text(applicationID), from, to])
        }
        return Window(sent: Double(try row?.get("sent", as: Int.self) ?? 0), verified: Double(try row?.get("verified", as: Int.self) ?? 0))
    }
}
