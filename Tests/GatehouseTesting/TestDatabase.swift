import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehousePostgres
import GatehouseSQLite

/// The databases every storage-touching test runs on: SQLite always, PostgreSQL when
/// `GATEHOUSE_TEST_POSTGRES_URL` is set (as `make test` and CI always do).
public enum TestDatabaseKind: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite, postgres

    /// The kinds available in this run; use as `@Test(arguments: TestDatabaseKind.available)`.
    public static var available: [TestDatabaseKind] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["GATEHOUSE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public var description: String { rawValue }
}

/// A fresh, empty database of one kind that no other test sees: a temporary SQLite file, or
/// a PostgreSQL schema of its own so tests run in parallel on one shared server.
public final class TestDatabase: @unchecked Sendable {
    public let database: any Database
    /// The URL the server settings need: a SQLite path or a schema-scoped PostgreSQL URL.
    public let url: String
    private let cleanup: () -> Void

    public init(_ kind: TestDatabaseKind) throws {
        switch kind {
        case .sqlite:
            let db = try SQLiteDatabase.temporary()
            // Private, as the server makes its own: a server started on it would otherwise
            // tighten it and warn. SQLite gives the WAL and SHM files the database's mode.
            for file in [db.path, db.path + "-wal", db.path + "-shm"] { _ = chmod(file, 0o600) }
            database = db
            url = "sqlite://" + db.path
            cleanup = {}
        case .postgres:
            guard let base = TestDatabaseKind.postgresURL else { throw TestSetupError("GATEHOUSE_TEST_POSTGRES_URL is not set") }
            let schema = "gh_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let admin = try PostgresDatabase(url: base, poolSize: 1)
            try admin.writeBlocking { try $0.executeScript("CREATE SCHEMA \(schema)") }
            url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
            database = try PostgresDatabase(url: url, poolSize: 8)
            cleanup = {
                try? admin.writeBlocking { try $0.executeScript("DROP SCHEMA \(schema) CASCADE") }
                admin.close()
            }
        }
    }

    /// Closes the database and drops what the test made. The drop (a schema of a hundred
    /// tables) goes on on a thread of its own: nothing waits for it, least of all a
    /// concurrency thread.
    public func close() {
        database.close()
        BlockingThreadPool.tests.run(cleanup)
    }
}

/// The test environment could not be prepared.
public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension TestDatabase {
    /// A fresh database with `migrations` applied. Making the schema and migrating wait on the
    /// database, so they run off the concurrency pool: tests start by the dozen, and their
    /// waits there would hold back the requests of the tests already running.
    public static func migrated(_ kind: TestDatabaseKind, _ migrations: [Migration], clock: any Clock) async throws -> TestDatabase {
        try await offPool {
            let store = try TestDatabase(kind)
            do {
                _ = try DatabaseMigrator(migrations: migrations, now: { clock.now }).migrate(store.database)
            } catch {
                store.close()
                throw error
            }
            return store
        }
    }
}
