import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// The pumping guard's reads of one prefix's counts: the right sums on both databases, and on
/// PostgreSQL a plan that reads that prefix's rows, not every prefix's of the application,
/// even before the table has statistics.
@Suite struct ConversionCountsTests {
    static let app = "app-1"
    static let now = Date(timeIntervalSince1970: 1_767_268_800 + 900)  // 2026-01-01T12:15:00Z
    static var hour: Date { ConversionCounts.hourStart(now) }

    static func store(_ kind: TestDatabaseKind) async throws -> TestDatabase {
        try await TestDatabase.migrated(kind, CoreMigrations.all + VerificationMigrations.all, clock: ManualClock())
    }

    static func count(_ db: any DatabaseConnection, prefix: String, hoursAgo: Int, shard: Int, sent: Int, verified: Int) throws {
        try ConversionCounts.add(
            db, applicationID: app, range: PhoneRange(prefix: prefix, country: "GB", digits: prefix),
            hour: hour.addingTimeInterval(-3600 * Double(hoursAgo)), shard: shard, sent: sent, verified: verified)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aPrefixsHoursAddUpWithoutItsNeighbours(_ kind: TestDatabaseKind) async throws {
        let store = try await Self.store(kind)
        defer { store.close() }
        try await store.database.write { db in
            for (prefix, scale) in [("447400", 1), ("447401", 100), ("4474", 1000)] {
                for shard in [8, 9] {
                    try Self.count(db, prefix: prefix, hoursAgo: 0, shard: shard, sent: 10 * scale, verified: 4 * scale)
                    try Self.count(db, prefix: prefix, hoursAgo: 1, shard: shard, sent: 20 * scale, verified: 8 * scale)
                    try Self.count(db, prefix: prefix, hoursAgo: 2, shard: shard, sent: 40 * scale, verified: 16 * scale)
                    try Self.count(db, prefix: prefix, hoursAgo: 30, shard: shard, sent: 80 * scale, verified: 32 * scale)
                }
            }
            try RecentCounts.add(db, applicationID: Self.app, prefix: "447400", sentAt: Self.now.addingTimeInterval(-30), shard: 8, sent: 3, verified: 1)
            try RecentCounts.add(db, applicationID: Self.app, prefix: "447401", sentAt: Self.now.addingTimeInterval(-30), shard: 8, sent: 50)
        }
        let (window, unverified, history) = try await store.database.read { db in
            let (window, unverified) = try ConversionCounts.lastHour(
                db, applicationID: Self.app, prefix: "447400", now: Self.now, unverifiedSince: Self.now.addingTimeInterval(-60))
            let history = try ConversionCounts.before(db, applicationID: Self.app, scope: "prefix", value: "447400", hour: Self.hour, days: 7)
            return (window, unverified, history)
        }
        // All of this hour (2 × 10), and three quarters of the last one (2 × 20 × 0.75).
        #expect(window == ConversionCounts.Window(sent: 50, verified: 20))
        #expect(unverified == 2)
        // The days before the last hour: two and thirty hours ago.
        #expect(history == ConversionCounts.Window(sent: 240, verified: 96))
        let all = try await store.database.read { db in
            try ConversionCounts.before(db, applicationID: Self.app, scope: "prefix", value: nil, hour: Self.hour, days: 7)
        }
        #expect(all.sent == 240 * 1101)
    }

    /// PostgreSQL's generic plans for the two reads of one prefix, on a table holding 300
    /// prefixes' day that it has no statistics for: the primary key, searched by the prefix.
    /// Before `verification.011`, both took the hours index and filtered on the prefix.
    @Test(arguments: [("lastHour", ConversionCounts.lastHourOfPrefix, "'a', '447400', 0, 'a', '447400', 82800"),
                      ("before", ConversionCounts.beforeOfValue, "'a', 'prefix', '447400', 0, 82800")])
    func aPrefixsCountsAreReadByThePrimaryKey(_ name: String, _ sql: String, _ arguments: String) async throws {
        guard TestDatabaseKind.available.contains(.postgres) else { return }
        let plan = try await Self.plan(of: sql, arguments: arguments, countries: 0)
        let scan = plan.split(separator: "\n").drop { !$0.contains("on verification_conversion_counts") }.prefix(3).joined(separator: "\n")
        #expect(scan.contains("verification_conversion_counts_pkey"), "\(name): \(plan)")
        #expect(scan.contains("Index Cond") && !scan.contains("Filter: (value"), "\(name): \(plan)")
    }

    /// The countries' hours (the console's charts, the baseline) are read by the index that
    /// holds only them, on a table holding many prefixes' rows beside them.
    @Test func aScopesHoursAreReadByTheCountriesIndex() async throws {
        guard TestDatabaseKind.available.contains(.postgres) else { return }
        let plan = try await Self.plan(of: ConversionCounts.beforeOfScope("country"), arguments: "'a', 0, 82800", countries: 10)
        #expect(plan.contains("verification_conversion_country_hours"), "\(plan)")
    }

    /// PostgreSQL's generic plan of `sql` on a table it has no statistics for, holding a day of
    /// 300 values' rows on 16 shards: prefixes, and the last `countries` of them countries.
    static func plan(of sql: String, arguments: String, countries: Int) async throws -> String {
        let store = try await Self.store(.postgres)
        defer { store.close() }
        return try await store.database.write { db in
            _ = try db.execute(
                """
                INSERT INTO verification_conversion_counts (application_id, scope, value, hour_start, shard, sent, verified)
                SELECT 'a', CASE WHEN p < \(300 - countries) THEN 'prefix' ELSE 'country' END, (447400 + p)::text, h * 3600, s, 10, 4
                FROM generate_series(0, 299) p, generate_series(0, 23) h, generate_series(8, 23) s
                """, [])
            return try genericPlan(db, of: sql, arguments: arguments)
        }
    }
}
