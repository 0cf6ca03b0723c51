import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehousePostgres
import GatehouseTesting
import Testing

/// The tests' pool of migrated PostgreSQL schemas: what a test finished with reaches the next
/// one empty, as migrated and out of the old test's reach, or not at all.
@Suite(.enabled(if: TestDatabaseKind.postgresURL != nil))
struct PostgresSchemaPoolTests {
    let clock = ManualClock()
    let pool = PostgresSchemaPool()
    var base: String { TestDatabaseKind.postgresURL ?? "" }

    @Test func aFinishedSchemaServesTheNextTestEmptyWithItsMigrationsKept() async throws {
        let first = try await checkout()
        let directory = TenantDirectory(environment: .test(database: first.database, clock: clock))
        let tenant = try await directory.createTenant(name: "Acme")
        _ = try await directory.createApplication(tenantID: tenant.id, name: "App")
        _ = try await directory.issueKey(tenantID: tenant.id, label: "k")
        await first.closeAndWait()

        let second = try await checkout()
        defer { second.close() }
        #expect(second.url == first.url)
        for table in ["tenants", "applications", "api_keys"] {
            #expect(try count("SELECT count(*) AS n FROM \(table)", in: second) == 0)
        }
        #expect(try count("SELECT count(*) AS n FROM gatehouse_migrations", in: second) == CoreMigrations.all.count)
        // Nothing to do for a migrator: the schema is as migrated.
        #expect(try DatabaseMigrator(migrations: CoreMigrations.all, now: { Date() }).pending(second.database).isEmpty)
    }

    @Test func theOldTestsConnectionsAreEndedBeforeTheSchemaIsHandedOn() async throws {
        let first = try await checkout()
        // A handle the old test never closed, as a node left running would hold.
        let straggler = try PostgresDatabase(url: first.url, poolSize: 1)
        defer { straggler.close() }
        #expect(try straggler.readBlocking { try $0.queryOne("SELECT 1 AS one", []) } != nil)
        await first.closeAndWait()

        let second = try await checkout()
        defer { second.close() }
        #expect(second.url == first.url)
        let others = try count(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = ? AND pid <> pg_backend_pid()", [.text(schema(second))],
            in: second)
        #expect(others == 0)
    }

    @Test func aSchemaItsTestChangedIsDroppedNotHandedOn() async throws {
        let first = try await checkout()
        try first.database.writeBlocking { try $0.executeScript("DROP TABLE rate_counters") }
        await first.closeAndWait()

        let second = try await checkout()
        defer { second.close() }
        #expect(second.url != first.url)
        #expect(try count("SELECT count(*) AS n FROM pg_namespace WHERE nspname = ?", [.text(schema(first))], in: second) == 0)
        #expect(try count("SELECT count(*) AS n FROM rate_counters", in: second) == 0)
    }

    private func checkout() async throws -> TestDatabase {
        let (pool, base, clock) = (pool, base, clock)
        return try await offPool { try pool.checkout(base: base, migrations: CoreMigrations.all, clock: clock) }
    }

    private func schema(_ store: TestDatabase) -> String {
        store.url.components(separatedBy: "application_name=").last ?? ""
    }

    private func count(_ sql: String, _ arguments: [SQLValue] = [], in store: TestDatabase) throws -> Int {
        try store.database.readBlocking { try $0.queryOne(sql, arguments)?.get("n", as: Int.self) ?? -1 }
    }
}

/// The tests' migrated SQLite files: each test gets a copy of its own of one migrated once.
@Suite struct SQLiteTemplatesTests {
    @Test func eachCopyHoldsTheMigrationsAndNothingOfAnothersData() async throws {
        let clock = ManualClock()
        let first = try await TestDatabase.migrated(.sqlite, CoreMigrations.all, clock: clock)
        let second = try await TestDatabase.migrated(.sqlite, CoreMigrations.all, clock: clock)
        defer { second.close() }
        #expect(first.url != second.url)
        _ = try await TenantDirectory(environment: .test(database: first.database, clock: clock)).createTenant(name: "Acme")
        let path = String(first.url.dropFirst("sqlite://".count))
        #expect(FileManager.default.fileExists(atPath: path))
        await first.closeAndWait()
        #expect(!FileManager.default.fileExists(atPath: path))

        let tenants = try second.database.readBlocking { try $0.queryOne("SELECT count(*) AS n FROM tenants", [])?.get("n", as: Int.self) }
        #expect(tenants == 0)
        #expect(try DatabaseMigrator(migrations: CoreMigrations.all, now: { Date() }).pending(second.database).isEmpty)
    }
}
