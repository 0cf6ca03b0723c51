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
/// Writes run in `BEGIN` (READ COMMITTED) … `COMMIT` transactions, which roll back when their
/// closure throws. Reads run their statements outside a transaction block: under READ
/// COMMITTED every statement takes its own snapshot inside a transaction too, so `BEGIN READ
/// ONLY` and `COMMIT` bought two round trips and nothing a read relies on. Every session is
/// read-only by default and a write's `BEGIN` says `READ WRITE`, so a read still cannot write.
/// When every connection is lent out, callers block until one comes back. A connection the
/// server dropped (restart, `pg_terminate_backend`, network cut) is noticed at a write's `BEGIN`, or at a
/// read's first statement, before any work, and the work moves to a fresh connection once, so
/// a dead idle connection costs the caller nothing. A failure later is reported, since the
/// work may need a retry that only the caller can judge.
///
/// Arguments are typed (integers as `bigint`, doubles as `double precision`, text as
/// `text`…), which PostgreSQL, unlike SQLite, checks: a function whose parameter is
/// `integer` needs `CAST(? AS INTEGER)`, and a NULL argument whose type nothing around it
/// implies (`? IS NULL` alone) needs `CAST(? AS TEXT)`.
/// See https://www.postgresql.org/docs/current/libpq-connect.html for the URL format.
public final class PostgresDatabase: Database, Sendable {
    public let dialect = SQLDialect.postgres
    /// Read-only sessions: a write's transaction is `READ WRITE`, a read's statements are not.
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
        let first = try PostgresConnection(url: url, schema: schema, readOnly: true)
        pool = ConnectionPool(
            capacity: poolSize, initial: [first],
            open: { try PostgresConnection(url: url, schema: schema, readOnly: true) },
            isUsable: { $0.isUsable },
            discard: { $0.close() }
        )
    }

    deinit {
        pool.close()
    }

    @discardableResult
    public func readBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        let connection = try pool.checkout()
        do {
            let value = try connection.read(body)
            pool.checkin(connection, keep: connection.isUsable)
            return value
        } catch let error as DatabaseError where error.kind == .connection && !connection.answered {
            // Dead before the read began: nothing ran, so the read moves once to a fresh connection.
            let fresh = try pool.replace(connection)
            defer { pool.checkin(fresh, keep: fresh.isUsable) }
            return try fresh.read(body)
        } catch {
            pool.checkin(connection, keep: connection.isUsable)
            throw error
        }
    }

    @discardableResult
    public func writeBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE", body)
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
