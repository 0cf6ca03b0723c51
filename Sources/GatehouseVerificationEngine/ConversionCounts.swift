import Foundation
import GatehouseDatabase

/// Codes sent and verified per application, prefix or country, and UTC hour, each connection
/// counting on a row of its own (`VerificationEngine.ownShard`) so busy countries do not queue
/// on one row. Verified codes
/// count in the hour they were sent, so an hour's share verified is that hour's conversion.
enum ConversionCounts {
    struct Window: Equatable {
        var sent: Double
        var verified: Double
    }

    static func hourStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
    }

    static func add(
        _ db: any DatabaseConnection, applicationID: String, range: PhoneRange, hour: Date, shard: Int, sent: Int = 0, verified: Int = 0
    ) throws {
        for (scope, value) in [("prefix", range.prefix), ("country", range.country)] {
            try db.send(
                """
                INSERT INTO verification_conversion_counts (application_id, scope, value, hour_start, shard, sent, verified)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (application_id, scope, value, hour_start, shard) DO UPDATE
                SET sent = verification_conversion_counts.sent + excluded.sent, verified = verification_conversion_counts.verified + excluded.verified
                """,
                [.text(applicationID), .text(scope), .text(value), hour.sqlValue, .integer(Int64(shard)), .integer(Int64(sent)), .integer(Int64(verified))])
        }
    }

    /// The sliding hour before `now`: this hour's counts and the previous hour's, weighted by
    /// the part of it still inside the hour.
    static func lastHour(_ db: any DatabaseConnection, applicationID: String, scope: String, value: String, now: Date) throws -> Window {
        try lastHour(db, applicationID: applicationID, now: now, only: (scope, value))[Key(scope: scope, value: value)] ?? Window(sent: 0, verified: 0)
    }

    struct Key: Hashable {
        let scope: String
        let value: String
    }

    /// ``lastHour(_:applicationID:scope:value:now:)`` of every prefix and country at once, or of `only` one.
    static func lastHour(_ db: any DatabaseConnection, applicationID: String, now: Date, only: (scope: String, value: String)? = nil) throws -> [Key: Window] {
        let hour = hourStart(now)
        let weight = 1 - now.timeIntervalSince(hour) / 3600
        var sql = """
            SELECT scope, value, hour_start, SUM(sent) AS sent, SUM(verified) AS verified FROM verification_conversion_counts
            WHERE application_id = ? AND hour_start >= ?
            """
        var arguments: [SQLValue] = [.text(applicationID), hour.addingTimeInterval(-3600).sqlValue]
        if let only {
            sql += " AND scope = ? AND value = ?"
            arguments += [.text(only.scope), .text(only.value)]
        }
        var windows: [Key: Window] = [:]
        for row in try db.query(sql + " GROUP BY scope, value, hour_start", arguments) {
            let start: Date = try row.get("hour_start")
            let share = start < hour ? weight : 1
            let key = Key(scope: try row.get("scope"), value: try row.get("value"))
            var window = windows[key] ?? Window(sent: 0, verified: 0)
            window.sent += Double(try row.get("sent", as: Int.self)) * share
            window.verified += Double(try row.get("verified", as: Int.self)) * share
            windows[key] = window
        }
        return windows
    }

    /// The first hour the application's codes were counted in, if any.
    static func firstHour(_ db: any DatabaseConnection, applicationID: String) throws -> Date? {
        try db.queryOne(
            "SELECT MIN(hour_start) AS first FROM verification_conversion_counts WHERE application_id = ? AND scope = 'country'", applicationID)?
            .get("first", as: Date?.self)
    }

    /// Totals over the `days` before the hour preceding `hour`; of one value, or (nil) of all.
    static func before(_ db: any DatabaseConnection, applicationID: String, scope: String, value: String?, hour: Date, days: Int) throws -> Window {
        let from = hour.addingTimeInterval(-Double(days) * 86_400)
        let to = hour.addingTimeInterval(-3600)
        var sql = """
            SELECT COALESCE(SUM(sent), 0) AS sent, COALESCE(SUM(verified), 0) AS verified FROM verification_conversion_counts
            WHERE application_id = ? AND scope = ? AND hour_start >= ? AND hour_start < ?
            """
        var arguments: [SQLValue] = [.text(applicationID), .text(scope), from.sqlValue, to.sqlValue]
        if let value {
            sql += " AND value = ?"
            arguments.append(.text(value))
        }
        let row = try db.queryOne(sql, arguments)
        return Window(sent: Double(try row?.get("sent", as: Int.self) ?? 0), verified: Double(try row?.get("verified", as: Int.self) ?? 0))
    }
}
