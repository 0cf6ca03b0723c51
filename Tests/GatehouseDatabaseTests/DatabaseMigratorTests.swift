import Foundation
import GatehouseDatabase
import Testing

/// The migrator applies each migration once, in order, in its own transaction.
@Suite struct DatabaseMigratorTests {
    private struct Boom: Error {}
    private static let now = Date(timeIntervalSince1970: 1_750_000_000.25)

    private static let tenants = Migration(id: "core.001_tenants") { db in
        try db.executeScript(db.dialect.createTable("tenant", "id TEXT PRIMARY KEY", "name TEXT NOT NULL"))
    }
    private static let apps = Migration(id: "core.002_apps") { db in
        try db.executeScript(db.dialect.createTable(
            "app", "id TEXT PRIMARY KEY", "tenant_id TEXT NOT NULL REFERENCES tenant (id)", "created_at {bigint} NOT NULL"
        ))
    }
    private static let accounts = Migration(id: "accounts.001_accounts") { db in
        try db.execute(db.dialect.createTable("account", "id TEXT PRIMARY KEY", "app_id TEXT NOT NULL REFERENCES app (id)"), [])
        try db.execute("INSERT INTO tenant (id, name) VALUES (?, ?)", "seed", "Seeded by a migration")
    }

    private func migrator(_ migrations: [Migration]) -> DatabaseMigrator {
        DatabaseMigrator(migrations: migrations, now: { Self.now })
    }

    @Test(arguments: TestBackend.all)
    func migratesEmptyDatabaseToLatestAndRecordsEachID(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let migrator = migrator([Self.tenants, Self.apps, Self.accounts])
        #expect(try migrator.pending(store.db) == ["core.001_tenants", "core.002_apps", "accounts.001_accounts"])
        #expect(try migrator.migrate(store.db) == ["core.001_tenants", "core.002_apps", "accounts.001_accounts"])
        #expect(try migrator.pending(store.db).isEmpty)

        let recorded = try store.db.readBlocking { try $0.query("SELECT id, applied_at FROM gatehouse_migrations ORDER BY id") }
        #expect(try recorded.map { try $0.get("id", as: String.self) } == ["accounts.001_accounts", "core.001_tenants", "core.002_apps"])
        #expect(try recorded.allSatisfy { try $0.get("applied_at", as: Int64.self) == 1_750_000_000_250_000 })
        // The schema is really there, foreign keys included.
        try store.db.writeBlocking { try $0.execute("INSERT INTO app (id, tenant_id, created_at) VALUES (?, ?, ?)", "a1", "seed", Self.now) }
        #expect(databaseError {
            try store.db.writeBlocking { try $0.execute("INSERT INTO app (id, tenant_id, created_at) VALUES (?, ?, ?)", "a2", "nope", Self.now) }
        }?.kind == .foreignKeyViolation)
    }

    @Test(arguments: TestBackend.all)
    func secondMigrateDoesNothing(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let migrator = migrator([Self.tenants, Self.apps, Self.accounts])
        try migrator.migrate(store.db)
        #expect(try migrator.migrate(store.db) == [])
        // The seeding migration did not run twice (it would also have hit the primary key).
        let seeded = try store.db.readBlocking { try $0.query("SELECT id FROM tenant") }
        #expect(seeded.count == 1)
    }

    @Test(arguments: TestBackend.all)
    func laterBinaryAppliesOnlyItsNewMigrations(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        #expect(try migrator([Self.tenants]).migrate(store.db) == ["core.001_tenants"])
        #expect(try migrator([Self.tenants, Self.apps, Self.accounts]).migrate(store.db) == ["core.002_apps", "accounts.001_accounts"])
    }

    @Test(arguments: TestBackend.all)
    func unknownRecordedMigrationIsRefused(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try migrator([Self.tenants, Self.apps]).migrate(store.db)
        let older = migrator([Self.tenants])
        let refusal = databaseError { try older.migrate(store.db) }
        #expect(refusal?.kind == .migration)
        #expect(refusal?.message.contains("core.002_apps") == true)
        #expect(databaseError { _ = try older.pending(store.db) }?.kind == .migration)
        // A binary that knows more than the database, but not what it holds, is refused too.
        #expect(databaseError { try migrator([Self.tenants, Self.accounts]).migrate(store.db) }?.kind == .migration)
    }

    @Test(arguments: TestBackend.all)
    func failingMigrationRollsBackAndIsNotRecorded(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let broken = Migration(id: "core.002_apps") { db in
            try db.executeScript(db.dialect.createTable("app", "id TEXT PRIMARY KEY"))
            throw Boom()
        }
        let error = databaseError { try migrator([Self.tenants, broken, Self.accounts]).migrate(store.db) }
        #expect(error?.kind == .migration)
        #expect(error?.message.contains("core.002_apps") == true)
        #expect(try migrator([Self.tenants, broken]).appliedIDs(store.db) == ["core.001_tenants"])
        // The table the failed migration created is gone with its transaction.
        #expect(databaseError { try store.db.readBlocking { try $0.query("SELECT id FROM app") } } != nil)
        // The fixed migration then applies cleanly, followed by the rest.
        #expect(try migrator([Self.tenants, Self.apps, Self.accounts]).migrate(store.db) == ["core.002_apps", "accounts.001_accounts"])
    }

    @Test(arguments: TestBackend.all)
    func failingStatementKeepsItsSQLInTheError(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let typo = Migration(id: "core.009_typo") { db in try db.execute("CREAT TABLE oops (id TEXT)", []) }
        let error = databaseError { try migrator([Self.tenants, typo]).migrate(store.db) }
        #expect(error?.kind == .migration)
        #expect(error?.sql == "CREAT TABLE oops (id TEXT)")
    }

    @Test(arguments: TestBackend.all)
    func duplicateIDsAreRefusedBeforeAnythingRuns(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let error = databaseError { try migrator([Self.tenants, Self.apps, Self.tenants]).migrate(store.db) }
        #expect(error?.kind == .migration)
        #expect(databaseError { try store.db.readBlocking { try $0.query("SELECT id FROM tenant") } } != nil)
    }

    @Test(arguments: TestBackend.all)
    func concurrentMigratorsApplyEachMigrationOnce(_ backend: TestBackend) async throws {
        let store = try backend.makeStore()
        defer { store.close() }
        // Each migration logs itself; a migration applied twice would log twice (or fail on
        // CREATE TABLE), and an id returned by two migrators would show in the union.
        let migrations = (1...6).map { step in
            Migration(id: String(format: "race.%03d", step)) { db in
                if step == 1 { try db.execute(db.dialect.createTable("log", "id TEXT PRIMARY KEY"), []) }
                try db.execute(db.dialect.createTable("t\(step)", "id TEXT"), [])
                try db.execute("INSERT INTO log (id) VALUES (?)", "race.\(step)")
            }
        }
        let migrator = migrator(migrations)
        let handles = try [store.db, store.openAnother(), store.openAnother(), store.openAnother()]
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for db in handles {
                group.addTask { try await Task.detached { try migrator.migrate(db) }.value }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(results.sorted() == migrations.map(\.id))
        let logged = try store.db.readBlocking { try $0.query("SELECT id FROM log") }
        #expect(logged.count == migrations.count)
    }
}
