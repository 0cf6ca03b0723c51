import CSQLite
import GatehouseDatabase

/// One SQLite connection with its prepared-statement cache.
///
/// It is not thread-safe: ``SQLiteDatabase`` lends it to one transaction at a time, which is
/// also why it can be opened with `SQLITE_OPEN_NOMUTEX`.
final class SQLiteConnection: DatabaseConnection {
    /// Past this many distinct SQL strings the cache starts over, so SQL built at run time
    /// (such as `IN (?, ?, …)` lists) cannot grow it without bound.
    static let statementCacheLimit = 256

    let dialect = SQLDialect.sqlite
    private let db: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// What the current transaction runs once it commits.
    let commitHooks = CommitHooks()

    /// Opens `path` (a file path or a `file:` URI) and applies the per-connection settings.
    ///
    /// - Parameters:
    ///   - busyTimeout: milliseconds to wait on another connection's lock before `.busy`.
    ///   - isWriter: the writer switches the file to WAL; readers refuse writes
    ///     (`query_only`), so a read transaction cannot change anything.
    init(path: String, busyTimeout: Int, isWriter: Bool) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard let handle else {
            throw DatabaseError(kind: .connection, code: "\(code)", message: "cannot allocate a SQLite connection")
        }
        do {
            try SQLiteResultCode.check(code, handle, sql: nil)
            sqlite3_extended_result_codes(handle, 1)
            try SQLiteResultCode.check(sqlite3_busy_timeout(handle, Int32(clamping: busyTimeout)), handle, sql: nil)
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        self.db = handle
        do {
            // Foreign keys are off by default and per connection, so every connection sets it.
            try executeScript("PRAGMA foreign_keys = ON")
            if isWriter {
                // WAL lets readers keep reading while the writer commits. NORMAL sync in WAL
                // mode loses nothing when the process dies (kill -9); only an OS crash or
                // power loss can drop the last commits.
                _ = try query("PRAGMA journal_mode = WAL", [])
                try executeScript("PRAGMA synchronous = NORMAL")
            } else {
                try executeScript("PRAGMA query_only = ON")
            }
        } catch {
            close()
            throw error
        }
    }

    /// Installs `hook` as this connection's WAL hook, which also turns off its automatic
    /// checkpoint (see ``SQLiteCheckpointer``).
    func setWALHook(
        _ hook: @escaping @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32,
        context: UnsafeMutableRawPointer
    ) {
        _ = sqlite3_wal_hook(db, hook, context)
    }

    /// Copies what it can of the WAL into the database file, waiting for no lock.
    func checkpointPassively() {
        _ = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    func close() {
        statements.values.forEach { $0.finalize() }
        statements.removeAll()
        sqlite3_close_v2(db)
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try run(sql, arguments).changes
    }

    /// Runs at once: a local file has no round trip to save.
    func send(_ sql: String, _ arguments: [SQLValue]) throws -> SentStatement {
        let (rows, changes) = try run(sql, arguments)
        return SentStatement(rows: rows, changes: changes)
    }

    private func run(_ sql: String, _ arguments: [SQLValue]) throws -> (rows: [Row], changes: Int) {
        // sqlite3_changes keeps the count of the last INSERT, UPDATE or DELETE, so a
        // statement that changed nothing (DDL, SELECT) would report an older statement's.
        let before = sqlite3_total_changes64(db)
        let rows = try statement(sql).run(arguments)
        return (rows, sqlite3_total_changes64(db) == before ? 0 : Int(sqlite3_changes64(db)))
    }

    func query(_ sql: String, _ arguments: [SQLValue]) throws -> [Row] {
        try statement(sql).run(arguments)
    }

    func executeScript(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(db, sql, nil, nil, &message)
        sqlite3_free(message)
        try SQLiteResultCode.check(code, db, sql: sql)
    }

    func afterCommit(_ work: @escaping () -> Void) {
        commitHooks.add(work)
    }

    /// Whether a transaction is open (SQLite ends one by itself after some errors).
    var isInTransaction: Bool { sqlite3_get_autocommit(db) == 0 }

    /// One transaction-control statement (`BEGIN`, `COMMIT`, `SAVEPOINT` …) from the statement
    /// cache: `sqlite3_exec` would parse and plan it again on every transaction.
    func control(_ sql: String) throws {
        _ = try statement(sql).run([])
    }

    /// Runs `body` between `begin` and `COMMIT`, rolling back when it or the commit throws.
    func transaction<T>(begin: String, _ body: (any DatabaseConnection) throws -> T) throws -> T {
        commitHooks.discard()
        try control(begin)
        do {
            let result = try body(self)
            try control("COMMIT")
            commitHooks.run()
            return result
        } catch {
            commitHooks.discard()
            // An error such as a full disk may already have rolled back; ROLLBACK would
            // then fail with "no transaction is active", which says nothing new.
            if sqlite3_get_autocommit(db) == 0 { try? executeScript("ROLLBACK") }
            throw error
        }
    }

    private func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let statement = try SQLiteStatement(db: db, sql: sql)
        if statements.count >= Self.statementCacheLimit {
            statements.values.forEach { $0.finalize() }
            statements.removeAll()
        }
        statements[sql] = statement
        return statement
    }
}
