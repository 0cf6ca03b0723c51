import GatehouseDatabase

/// A PostgreSQL database reached through a bounded pool of libpq connections.
///
/// ```swift
/// let db = try PostgresDatabase(url: "postgres://gatehouse@db.internal/gatehouse", poolSize: 16)
/// let claimed = try await db.write { conn in
///     try conn.query("SELECT id FROM job WHERE state = 'ready' LIMIT 1" + conn.dialect.forUpdateSkipLocked)
/// }
/// ```
///
/// Writes run in `BEGIN` (READ COMMITTED) … `COMMIT` transactions, reads in
/// `BEGIN READ ONLY`; either rolls back when its closure throws. When every connection is
/// lent out, callers block until one comes back. A connection the server dropped (restart,
/// `pg_terminate_backend`, network cut) is noticed at `BEGIN`, before any work, and the
/// transaction moves to a fresh connection once, so a dead idle connection costs the caller
/// nothing. A failure later in a transaction is reported, since the work may need a retry
/// that only the caller can judge.
///
/// Arguments are typed (integers as `bigint`, doubles as `double precision`, text as
/// `text`…), which PostgreSQL, unlike SQLite, checks: a function whose parameter is
/// `integer` needs `CAST(? AS INTEGER)`, and a NULL argument whose type nothing around it
/// implies (`? IS NULL` alone) needs `CAST(? AS TEXT)`.
/// See https://www.postgresql.org/docs/current/libpq-connect.html for the URL format.
public final class PostgresDatabase: Database, Sendable {
    public let dialect = SQLDialect.postgres
    private let pool: ConnectionPool<PostgresConnection>

    /// Connects once to check `url`, then opens more connections as load requires.
    ///
    /// - Parameters:
    ///   - url: a libpq connection URI or `key=value` string.
    ///   - poolSize: the most connections this process holds open at once.
    /// - Throws: `DatabaseError` of kind `.connection` when the server cannot be reached.
    public init(url: String, poolSize: Int = 8) throws {
        precondition(poolSize >= 1, "PostgresDatabase needs at least one connection")
        let schema = PostgresSchemaVersion()
        let first = try PostgresConnection(url: url, schema: schema)
        pool = ConnectionPool(
            capacity: poolSize, initial: [first],
            open: { try PostgresConnection(url: url, schema: schema) },
            isUsable: { $0.isUsable },
            discard: { $0.close() }
        )
    }

    deinit {
        pool.close()
    }

    @discardableResult
    public func readBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try transaction(begin: "BEGIN READ ONLY", body)
    }

    @discardableResult
    public func writeBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL READ COMMITTED", body)
    }

    public func ping() throws {
        _ = try readBlocking { try $0.query("SELECT 1", []) }
    }

    public func close() {
        pool.close()
    }

    private func transaction<T>(begin: String, _ body: (any DatabaseConnection) throws -> T) throws -> T {
        let connection = try begun(begin)
        defer { pool.checkin(connection, keep: connection.isUsable) }
        return try connection.finishTransaction(body)
    }

    /// A pooled connection with a transaction open, replacing it once if the server turns
    /// out to have dropped it.
    private func begun(_ begin: String) throws -> PostgresConnection {
        let connection = try pool.checkout()
        do {
            try connection.begin(begin)
            return connection
        } catch let error as DatabaseError where error.kind == .connection {
            let fresh = try pool.replace(connection)
            do {
                try fresh.begin(begin)
                return fresh
            } catch {
                pool.checkin(fresh, keep: fresh.isUsable)
                throw error
            }
        } catch {
            pool.checkin(connection, keep: connection.isUsable)
            throw error
        }
    }
}
