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

    package static var postgresURL: String? {
        ProcessInfo.processInfo.environment["GATEHOUSE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public var description: String { rawValue }
}

/// A database of one kind that no other test sees while it runs: a temporary SQLite file, or
/// a PostgreSQL schema of its own so tests run in parallel on one shared server. `init` makes
/// it fresh and empty; ``migrated(_:_:clock:)`` makes it migrated and empty.
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
            url = PostgresSchemaPool.url(base: base, schema: schema)
            database = try PostgresDatabase(url: url, poolSize: 8)
            cleanup = {
                try? admin.writeBlocking { try $0.executeScript("DROP SCHEMA \(schema) CASCADE") }
                admin.close()
            }
        }
    }

    /// A database made by ``PostgresSchemaPool`` or ``SQLiteTemplates``; `cleanup` gives it
    /// back or removes it.
    init(_ database: any Database, url: String, cleanup: @escaping () -> Void) {
        (self.database, self.url, self.cleanup) = (database, url, cleanup)
    }

    /// Closes the database and drops what the test made, or empties a pooled schema and gives
    /// it back. That goes on on a thread of its own: nothing waits for it, least of all a
    /// concurrency thread.
    public func close() {
        database.close()
        BlockingThreadPool.tests.run(cleanup)
    }

    /// ``close()``, returning once what the test made is dropped or, for a pooled schema,
    /// emptied and back in its pool.
    package func closeAndWait() async {
        database.close()
        _ = try? await offPool(cleanup)
    }
}

/// The test environment could not be prepared.
public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension TestDatabase {
    /// A database with `migrations` applied and nothing else in it: a copy of a SQLite file
    /// ``SQLiteTemplates`` migrated once, or a PostgreSQL schema that ``PostgresSchemaPool``
    /// migrated for this test or emptied after an earlier one. Making it waits on the
    /// database, so it runs off the concurrency pool: tests start by the dozen, and their
    /// waits there would hold back the requests of the tests already running.
    public static func migrated(_ kind: TestDatabaseKind, _ migrations: [Migration], clock: any Clock) async throws -> TestDatabase {
        try await offPool {
            switch kind {
            case .sqlite:
                return try SQLiteTemplates.shared.copy(migrations, clock: clock)
            case .postgres:
                guard let base = TestDatabaseKind.postgresURL else { throw TestSetupError("GATEHOUSE_TEST_POSTGRES_URL is not set") }
                return try PostgresSchemaPool.shared.checkout(base: base, migrations: migrations, clock: clock)
            }
        }
    }
}

extension [Migration] {
    /// What tells one list of migrations from another: the ids in order.
    var key: String { map(\.id).joined(separator: "\n") }
}
