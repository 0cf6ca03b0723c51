import Foundation

/// Brings a database schema up to date by running the migrations it has not seen yet.
///
/// ```swift
/// let migrator = DatabaseMigrator(migrations: CoreMigrations.all + AccountsEngine.migrations,
///                                 now: { clock.now })
/// let applied = try migrator.migrate(database)   // ids applied by this call, in order
/// ```
///
/// Every migration runs in its own write transaction together with the row that records it
/// in `gatehouse_migrations`, so a migration that throws leaves neither schema changes nor a
/// record behind. Before each transaction does anything it takes the dialect's
/// ``SQLDialect/migrationLock`` and re-reads the applied ids, so several processes starting
/// at once apply each migration exactly once.
public struct DatabaseMigrator: Sendable {
    /// The bookkeeping table; one row per applied migration.
    public static let tableName = "gatehouse_migrations"

    public let migrations: [Migration]
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - migrations: every migration this binary knows, in the order they must run.
    ///   - now: the clock recorded in `applied_at` (microseconds since 1970).
    public init(migrations: [Migration], now: @escaping @Sendable () -> Date) {
        self.migrations = migrations
        self.now = now
    }

    /// Runs every pending migration, each in its own transaction.
    ///
    /// - Returns: the ids applied by this call, in order (empty when already up to date).
    /// - Throws: `DatabaseError` of kind `.migration` when the list has duplicate ids, when
    ///   the database records a migration this binary does not know (it was migrated by a
    ///   newer binary), or when a migration fails (its error is described in the message).
    @discardableResult
    public func migrate(_ db: any Database) throws -> [String] {
        let pendingIDs = Set(try pending(db))
        var applied: [String] = []
        for migration in migrations where pendingIDs.contains(migration.id) {
            let didApply = try db.writeBlocking { conn -> Bool in
                let recorded = try prepare(conn)
                // Another process may have applied it while we waited for the lock.
                guard !recorded.contains(migration.id) else { return false }
                try run(migration, on: conn)
                try conn.execute(
                    "INSERT INTO \(Self.tableName) (id, applied_at) VALUES (?, ?)",
                    [.text(migration.id), now().sqlValue]
                )
                return true
            }
            if didApply { applied.append(migration.id) }
        }
        return applied
    }

    /// The ids of the migrations not applied yet, in the order `migrate` would run them.
    ///
    /// - Throws: the same refusals as ``migrate(_:)``, so a dry run reports them too.
    public func pending(_ db: any Database) throws -> [String] {
        try validateIDs()
        let recorded = try db.writeBlocking { conn in try prepare(conn) }
        return migrations.map(\.id).filter { !recorded.contains($0) }
    }

    /// The ids recorded in the database, oldest first (empty for a fresh database).
    public func appliedIDs(_ db: any Database) throws -> [String] {
        try db.writeBlocking { conn in
            try createTable(conn)
            return try conn.query("SELECT id FROM \(Self.tableName) ORDER BY applied_at, id", [])
                .map { try $0.get("id", as: String.self) }
        }
    }

    /// Takes the migration lock, creates the bookkeeping table if needed and returns the
    /// recorded ids, refusing ids this binary does not know.
    private func prepare(_ conn: any DatabaseConnection) throws -> Set<String> {
        if let lock = conn.dialect.migrationLock {
            _ = try conn.query(lock, [])
        }
        try createTable(conn)
        let recorded = try Set(
            conn.query("SELECT id FROM \(Self.tableName)", []).map { try $0.get("id", as: String.self) }
        )
        let unknown = recorded.subtracting(migrations.map(\.id)).sorted()
        guard unknown.isEmpty else {
            throw DatabaseError(
                kind: .migration, code: "unknown_migration",
                message: "database holds migrations this binary does not know: "
                    + unknown.joined(separator: ", ") + "; refusing to run an older binary on a newer schema"
            )
        }
        return recorded
    }

    private func createTable(_ conn: any DatabaseConnection) throws {
        try conn.execute(
            "CREATE TABLE IF NOT EXISTS \(Self.tableName) (id TEXT PRIMARY KEY, applied_at \(conn.dialect.bigint) NOT NULL)",
            []
        )
    }

    private func run(_ migration: Migration, on conn: any DatabaseConnection) throws {
        do {
            try migration.apply(conn)
        } catch let error as DatabaseError {
            throw DatabaseError(
                kind: .migration, code: error.code,
                message: "migration \(migration.id) failed: \(error.kind): \(error.message)", sql: error.sql
            )
        } catch {
            throw DatabaseError(kind: .migration, code: "failed", message: "migration \(migration.id) failed: \(error)")
        }
    }

    private func validateIDs() throws {
        var seen = Set<String>()
        let duplicates = migrations.map(\.id).filter { !seen.insert($0).inserted }
        guard duplicates.isEmpty else {
            throw DatabaseError(
                kind: .migration, code: "duplicate_migration",
                message: "migration ids listed twice: " + duplicates.joined(separator: ", ")
            )
        }
    }
}
