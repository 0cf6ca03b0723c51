import Foundation

/// A SQL database reached only through scoped transactions.
///
/// ```swift
/// let count = try await db.write { conn in
///     try conn.execute("UPDATE session SET revoked_at = ? WHERE account_id = ?", [now, id])
/// }
/// let rows = try await db.read { conn in try conn.query("SELECT id FROM tenant", []) }
/// ```
///
/// `write` runs its closure in one transaction that commits when the closure returns and
/// rolls back when it throws. SQL uses `?` placeholders on every driver. The connection
/// handed to the closure must not escape it.
public protocol Database: AnyObject, Sendable {
    /// What differs in SQL text between drivers (types, row locks, upserts).
    var dialect: SQLDialect { get }

    /// Runs `body` in a read-only transaction, blocking the calling thread.
    @discardableResult
    func readBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T

    /// Runs `body` in a read-write transaction, blocking the calling thread.
    @discardableResult
    func writeBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T

    /// Runs `body` in a read-write transaction off the calling thread and hands `completion`
    /// what it returned or threw once that is settled. The default runs `writeBlocking` on a
    /// database thread; a driver that queues writes (SQLite's group commit) takes the write
    /// without holding a thread for it while it waits.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (any DatabaseConnection) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void)

    /// Runs `body` in a read-only transaction off the calling thread and hands `completion`
    /// what it returned or threw. The default runs `readBlocking` on a database thread.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (any DatabaseConnection) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void)

    /// Runs `body` in a read-only transaction on the calling thread if that cannot wait: a
    /// connection is idle now and a read on it waits for no network (SQLite's local file);
    /// nil, without running it, otherwise.
    func readIfImmediate<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T?

    /// Checks that the database answers (a trivial query on a pooled connection).
    func ping() throws

    /// Closes every connection; later calls fail with `DatabaseError.closed`.
    func close()
}

/// One connection inside a transaction.
public protocol DatabaseConnection: AnyObject {
    var dialect: SQLDialect { get }

    /// Runs a statement and returns how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int

    /// Runs a query and returns every row.
    func query(_ sql: String, _ arguments: [SQLValue]) throws -> [Row]

    /// Sends a statement without waiting for its answer, which is read when the returned
    /// statement is asked for it, or when a later statement waits for its own, or at the end
    /// of the transaction. PostgreSQL sends the statements of one transaction that wait for
    /// nothing together with the next one that waits, in one round trip; SQLite runs a
    /// statement as it is sent. Statements run in the order they were sent either way. An
    /// error is thrown by the statement's `rows()` or `changes()`, and by the next
    /// statement that waits (which then fails too, as the transaction does): send only what
    /// the transaction would not go on without, never a statement whose error is caught.
    @discardableResult
    func send(_ sql: String, _ arguments: [SQLValue]) throws -> SentStatement

    /// Runs several `;`-separated statements with no arguments (migrations).
    func executeScript(_ sql: String) throws

    /// Runs `work` on the thread that committed, once the transaction has committed, and never
    /// if it rolls back (with SQLite's group commit: on the batch leader's thread once the batch
    /// it shares commits, and never if its own part is rolled back). For what must follow the commit but cannot be
    /// in it, such as counts kept in node memory; in a read, once the read ends.
    func afterCommit(_ work: @escaping () -> Void)
}

extension DatabaseConnection {
    /// Runs a statement with typed arguments.
    @discardableResult
    public func execute(_ sql: String, _ arguments: any SQLValueConvertible...) throws -> Int {
        try execute(sql, arguments.map(\.sqlValue))
    }

    /// Runs a query with typed arguments.
    public func query(_ sql: String, _ arguments: any SQLValueConvertible...) throws -> [Row] {
        try query(sql, arguments.map(\.sqlValue))
    }

    /// Sends a statement with typed arguments (see ``send(_:_:)-(String,[SQLValue])``).
    @discardableResult
    public func send(_ sql: String, _ arguments: any SQLValueConvertible...) throws -> SentStatement {
        try send(sql, arguments.map(\.sqlValue))
    }

    /// Runs a query that returns at most one row.
    public func queryOne(_ sql: String, _ arguments: any SQLValueConvertible...) throws -> Row? {
        try query(sql, arguments.map(\.sqlValue)).first
    }

    /// Runs a query that returns at most one row. This overload also catches `queryOne(sql, [])`,
    /// which would otherwise bind the empty array as one blob argument.
    public func queryOne(_ sql: String, _ arguments: [SQLValue]) throws -> Row? {
        try query(sql, arguments).first
    }

    /// Waits until no other transaction holds the turn named `name`, and holds it until this
    /// one ends: writers that read, merge and write back the same thing (a tenant's settings)
    /// take turns instead of overwriting each other's fields. A PostgreSQL advisory lock, so
    /// nothing else (foreign-key checks of the tenant's other rows) waits on it; nothing on
    /// SQLite, whose write transaction already holds the only write lock.
    public func takeTurn(_ name: String) throws {
        guard let lock = dialect.transactionLockByName else { return }
        // Its answer says nothing: the statements after it wait behind it on the server.
        try send(lock, [.text(name)])
    }
}

extension Database {
    /// Never immediate: every read waits for the network or a checkout (PostgreSQL).
    public func readIfImmediate<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T? { nil }

    /// Runs `body` in a read-only transaction without waiting on a concurrency thread: on the
    /// calling thread when the read cannot wait (`readIfImmediate`: an idle SQLite reader,
    /// which saves two thread hops), else on the blocking pool.
    @discardableResult
    public func read<T: Sendable>(_ body: @escaping @Sendable (any DatabaseConnection) throws -> T) async throws -> T {
        if let value = try readIfImmediate(body) { return value }
        return try await withCheckedThrowingContinuation { continuation in
            read(body) { continuation.resume(with: $0) }
        }
    }

    public func read<T: Sendable>(
        _ body: @escaping @Sendable (any DatabaseConnection) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        // Blocking work stays off the Swift concurrency pool, whose few threads must never
        // wait on a socket or a connection checkout.
        BlockingThreadPool.database.run { completion(Result { try self.readBlocking(body) }) }
    }

    public func write<T: Sendable>(
        _ body: @escaping @Sendable (any DatabaseConnection) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        BlockingThreadPool.database.run { completion(Result { try self.writeBlocking(body) }) }
    }

    /// Runs `body` in a read-write transaction without blocking a concurrency thread.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any DatabaseConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            write(body) { continuation.resume(with: $0) }
        }
    }
}
