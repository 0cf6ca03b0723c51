import Foundation
import GatehouseDatabase

// Safe: `isClosed` is only read and written under `closeLock`; every other stored property is a `let` of a Sendable type
// (the two pools and `groupCommit` guard their own state).
/// A SQLite database file in WAL mode: one writer connection and a pool of readers.
///
/// ```swift
/// let db = try SQLiteDatabase(path: "/var/lib/gatehouse/gatehouse.sqlite")
/// try await db.write { conn in try conn.execute("INSERT INTO tenant (id) VALUES (?)", id) }
/// let rows = try await db.read { conn in try conn.query("SELECT id FROM tenant") }
/// ```
///
/// Writes take the single writer connection (so they run one at a time in this process);
/// writes that arrive while one transaction is open share the next one, each in a savepoint
/// of its own (``SQLiteGroupCommit``), so that one flush to disk serves them all. A
/// transaction starts with `BEGIN IMMEDIATE`, which takes SQLite's write lock up front: a second
/// process waits up to `busyTimeout` instead of failing half-way through a transaction.
/// The WAL is copied back into the file by a thread of its own (``SQLiteCheckpointer``), not
/// by the commits. Reads run on reader connections in `BEGIN DEFERRED` transactions and, thanks to WAL,
/// see every committed write without waiting for the writer. A write closure must not start
/// another write on the same database: it would wait for the writer it is holding.
/// See https://www.sqlite.org/wal.html and https://www.sqlite.org/lang_transaction.html.
public final class SQLiteDatabase: Database, @unchecked Sendable {
    public let dialect = SQLDialect.sqlite
    /// The database file (for ``temporary(readers:busyTimeout:checkpointPages:)``, a fresh file under the
    /// temporary directory).
    public let path: String
    private let writer: ConnectionPool<SQLiteConnection>
    private let groupCommit: SQLiteGroupCommit
    private let checkpointer: SQLiteCheckpointer
    private let readers: ConnectionPool<SQLiteConnection>
    private let deletesFilesOnClose: Bool
    private let closeLock = NSLock()
    private var isClosed = false

    /// Opens (creating if needed) the database at `path` and switches it to WAL mode.
    ///
    /// - Parameters:
    ///   - readers: the most read transactions that run at once; more wait for a reader.
    ///   - busyTimeout: milliseconds a connection waits on another process's lock before
    ///     the statement fails with `DatabaseError.Kind.busy`.
    /// - Throws: `DatabaseError` of kind `.connection` when the file cannot be opened.
    public convenience init(path: String, readers: Int = 4, busyTimeout: Int = 5_000) throws {
        try self.init(path: path, readers: readers, busyTimeout: busyTimeout, deletesFilesOnClose: false)
    }

    /// Opens a new database in a uniquely named temporary file that `close()` deletes; for
    /// tests, which get real WAL behaviour that an in-memory database would not have.
    /// `checkpointPages`: the WAL's size that wakes the checkpointing thread (tests make it small).
    public static func temporary(
        readers: Int = 4, busyTimeout: Int = 5_000, checkpointPages: Int = 4_000
    ) throws -> SQLiteDatabase {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("gatehouse-\(UUID().uuidString).sqlite").path
        return try SQLiteDatabase(
            path: path, readers: readers, busyTimeout: busyTimeout, deletesFilesOnClose: true, checkpointPages: checkpointPages)
    }

    private init(
        path: String, readers: Int, busyTimeout: Int, deletesFilesOnClose: Bool, checkpointPages: Int = SQLiteCheckpointer.defaultPages
    ) throws {
        precondition(readers >= 1, "SQLiteDatabase needs at least one reader")
        self.path = path
        self.deletesFilesOnClose = deletesFilesOnClose
        // The writer opens first: it creates the file and switches it to WAL before any
        // reader looks at it.
        let checkpointer = SQLiteCheckpointer(path: path, busyTimeout: busyTimeout, pages: checkpointPages)
        self.checkpointer = checkpointer
        let writerConnection = try SQLiteConnection(path: path, busyTimeout: busyTimeout, isWriter: true)
        checkpointer.watch(writerConnection)
        writer = ConnectionPool(
            capacity: 1, initial: [writerConnection],
            open: {
                let connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout, isWriter: true)
                checkpointer.watch(connection)
                return connection
            },
            discard: { $0.close() }
        )
        groupCommit = SQLiteGroupCommit(writer: writer)
        self.readers = ConnectionPool(
            capacity: readers,
            open: { try SQLiteConnection(path: path, busyTimeout: busyTimeout, isWriter: false) },
            discard: { $0.close() }
        )
        do {
            try checkpointer.start()
        } catch {
            writer.close()
            throw error
        }
    }

    deinit {
        close()
    }

    @discardableResult
    public func readBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try readers.withConnection { try $0.transaction(begin: "BEGIN DEFERRED", body) }
    }

    /// A reader that is idle now, on the calling thread: a WAL read waits for no writer and
    /// no network, only for the file's pages.
    public func readIfImmediate<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T? {
        try readers.withIdleConnection { try $0.transaction(begin: "BEGIN DEFERRED", body) }
    }

    @discardableResult
    public func writeBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try groupCommit.write(body)
    }

    /// Queued for the next transaction; no thread waits for it unless it leads the batch.
    public func write<T: Sendable>(
        _ body: @escaping @Sendable (any DatabaseConnection) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        groupCommit.write(body, completion: completion)
    }

    /// Write transactions committed so far; several writes may share one.
    public var commitCount: Int { groupCommit.commitCount }
    /// Writes waiting for the transaction after the open one (for tests and metrics).
    public var waitingWrites: Int { groupCommit.waitingCount }
    /// Checkpoints run off the writer so far (see ``SQLiteCheckpointer``).
    public var checkpointPasses: Int { checkpointer.checkpointPasses }

    public func ping() throws {
        _ = try readBlocking { try $0.query("SELECT 1", []) }
    }

    public func close() {
        closeLock.lock()
        defer { closeLock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        readers.close()
        checkpointer.stop()
        // The writer closes last: SQLite folds the WAL back into the database file and
        // removes it when the last connection closes.
        writer.close()
        if deletesFilesOnClose {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
    }
}
