import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// Upgrading mid-period keeps the period's volume: the old single counters move to shard 0.
@Suite struct VolumeMigrationTests {
    @Test(arguments: TestDatabaseKind.available)
    func theOldCountersCarryOverToTheShards(_ kind: TestDatabaseKind) async throws {
        let store = try TestDatabase(kind)
        defer { store.close() }
        let clock = ManualClock()
        clock.set(Date(timeIntervalSince1970: 1_767_268_800))  // 2026-01-01T12:00:00Z
        let before = CoreMigrations.all + VerificationMigrations.all.prefix(2)
        _ = try DatabaseMigrator(migrations: Array(before), now: { clock.now }).migrate(store.database)
        try await store.database.write { db in
            for (key, hits) in [("verify:daily:app1:20260101", 7), ("verify:monthly:app1:202601", 40), ("verify:ip:1.2.3.4", 3)] {
                try db.execute("INSERT INTO rate_counters (counter_key, window_start, hits) VALUES (?, 0, ?)", key, hits)
            }
        }
        _ = try DatabaseMigrator(migrations: CoreMigrations.all + VerificationMigrations.all, now: { clock.now }).migrate(store.database)
        let rows = try await store.database.read { db in
            try db.query("SELECT counter_key, shard, hits, period_end FROM verification_volume_shards ORDER BY counter_key", []).map {
                (try $0.get("counter_key", as: String.self), try $0.get("shard", as: Int.self), try $0.get("hits", as: Int.self),
                 try $0.get("period_end", as: Date.self))
            }
        }
        // Spread as the shard caps are: 7 over the first seven shards, 40 as five in each.
        let daily = rows.filter { $0.0 == "daily:app1:20260101" }
        let monthly = rows.filter { $0.0 == "monthly:app1:202601" }
        #expect(daily.count + monthly.count == rows.count)
        #expect(daily.map(\.1).sorted() == Array(0..<7) && daily.allSatisfy { $0.2 == 1 })
        #expect(monthly.map(\.1).sorted() == Array(0..<8) && monthly.allSatisfy { $0.2 == 5 })
        #expect(daily.allSatisfy { $0.3 == Date(timeIntervalSince1970: 1_767_312_000) })
        #expect(monthly.allSatisfy { $0.3 == Date(timeIntervalSince1970: 1_769_904_000) })
        let left: [String] = try await store.database.read { db in
            try db.query("SELECT counter_key FROM rate_counters", []).map { try $0.get("counter_key") }
        }
        #expect(left == ["verify:ip:1.2.3.4"])
    }

    /// Applications made before the pumping guard get its automatic blocks and no budgets;
    /// their old verifications have no prefix and count nowhere.
    @Test(arguments: TestDatabaseKind.available)
    func existingApplicationsGetTheGuardWithoutBudgets(_ kind: TestDatabaseKind) async throws {
        let store = try TestDatabase(kind)
        defer { store.close() }
        let clock = ManualClock()
        let before = CoreMigrations.all + VerificationMigrations.all.prefix(8)
        _ = try DatabaseMigrator(migrations: Array(before), now: { clock.now }).migrate(store.database)
        let tenant = try await TenantDirectory(environment: Environment.test(database: store.database, clock: clock)).createTenant(name: "Old").id
        try await store.database.write { db in
            try db.execute(
                """
                INSERT INTO otp_applications (id, tenant_id, name, app_key, secret, min_auth, callback_url, sms_domain, code_length,
                  lifetime_seconds, max_attempts, paused, disabled_countries, daily_limit, monthly_limit, cooldown_seconds, fee_sms_micros,
                  fee_callout_micros, created_at)
                VALUES ('app-old', ?, 'Old', 'vk_old', 's', 'basic', NULL, NULL, 6, 300, 3, ?, '', 100, NULL, 30, 50000, 100000, ?)
                """, tenant, false, clock.now)
        }
        _ = try DatabaseMigrator(migrations: CoreMigrations.all + VerificationMigrations.all, now: { clock.now }).migrate(store.database)
        let app = try await store.database.read { db in try OTPApplication(row: db.queryOne("SELECT * FROM otp_applications WHERE id = 'app-old'")!) }
        #expect(app.autoBlockPrefixes && app.dailyLimit == 100)
        #expect(app.prefixHourlyLimit == nil && app.prefixDailyLimit == nil && app.countryHourlyLimit == nil && app.countryDailyLimit == nil)
    }
}
