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
/// closure throws. Statements go in libpq's pipeline mode: a write's `BEGIN`, and the
/// statements it ``DatabaseConnection/send(_:_:)``s, travel with the next statement it waits
/// on, and its last ones with its `COMMIT`. Reads run their statements outside a transaction
/// block: under READ COMMITTED every statement takes its own snapshot inside a transaction
/// too, so `BEGIN READ ONLY` and `COMMIT` bought two round trips and nothing a read relies on.
/// Every session is read-only by default and a write's `BEGIN` says `READ WRITE`, so a read
/// still cannot write. When every connection is lent out, callers block until one comes back.
/// A connection the server dropped (restart, `pg_terminate_backend`, network cut) is noticed
/// at the first round trip of a read or a write, before the server has answered anything,
/// and the work moves to a fresh connection once, so a dead idle connection costs the caller
/// nothing; a write that sent its `COMMIT` in that first round trip is the exception, since it
/// may have committed. A failure later is reported, since the work may need a retry that only
/// the caller can judge.
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
    /// The threads that run reads and writes for `async` callers: no more than there are
    /// connections, so none of them waits in the pool's checkout while another holds the
    /// connection it needs, and a busy one takes the next job without sleeping.
    private let lanes: BlockingThreadPool
    private let roundTripCount: PostgresRoundTrips

    /// Round trips to the server made so far by this database's connections (each sync
    /// point of a pipeline, and each simple-protocol command such as a session setting).
    public var roundTrips: Int { roundTripCount.value }

    /// Connects once to check `url`, then opens more connections as load requires.
    ///
    /// - Parameters:
    ///   - url: a libpq connection URI or `key=value` string.
    ///   - poolSize: the most connections this process holds open at once.
    /// - Throws: `DatabaseError` of kind `.connection` when the server cannot be reached.
    public init(url: String, poolSize: Int = 8) throws {
        precondition(poolSize >= 1, "PostgresDatabase needs at least one connection")
        let schema = PostgresSchemaVersion()
        let roundTrips = PostgresRoundTrips()
        self.roundTripCount = roundTrips
        let first = try PostgresConnection(url: url, schema: schema, roundTrips: roundTrips, readOnly: true)
        lanes = BlockingThreadPool(name: "gatehouse.postgres", maxThreads: poolSize)
        pool = ConnectionPool(
            capacity: poolSize, initial: [first],
            open: { try PostgresConnection(url: url, schema: schema, roundTrips: roundTrips, readOnly: true) },
            isUsable: { $0.isUsable },
            discard: { $0.close() }
        )
    }

    deinit {
        pool.close()
    }

    @discardableResult
    public func readBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try onLiveConnection { try $0.read(body) }
    }

    @discardableResult
    public func writeBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try onLiveConnection { try $0.transaction(begin: "BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE", body) }
    }

    public func read<T: Sendable>(
        _ body: @escaping @Sendable (any DatabaseConnection) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        lanes.run { completion(Result { try self.readBlocking(body) }) }
    }

    public func write<T: Sendable>(
        _ body: @escaping @Sendable (any DatabaseConnection) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        lanes.run { completion(Result { try self.writeBlocking(body) }) }
    }

    public func ping() throws {
        _ = try readBlocking { try $0.query("SELECT 1", []) }
    }

    public func close() {
        pool.close()
    }

    /// Runs `work` on a pooled connection. A connection the server dropped while it sat in
    /// the pool fails before the server has answered anything; when no `COMMIT` had left
    /// either, nothing of the work was done and it moves once to a fresh connection. A write
    /// sent whole in one round trip (`BEGIN`, its statements and `COMMIT`) may have
    /// committed before the connection failed, so its error is reported instead.
    private func onLiveConnection<T>(_ work: (PostgresConnection) throws -> T) throws -> T {
        let connection = try pool.checkout()
        do {
            let value = try work(connection)
            pool.checkin(connection, keep: connection.isUsable)
            return value
        } catch let error as DatabaseError where error.kind == .connection && connection.certainlyUndone {
            let fresh = try pool.replace(connection)
            defer { pool.checkin(fresh, keep: fresh.isUsable) }
            return try work(fresh)
        } catch {
            pool.checkin(connection, keep: connection.isUsable)
            throw error
        }
    }
}
