/// The SQL text that differs between SQLite and PostgreSQL, as plain values.
public struct SQLDialect: Sendable, Equatable {
    /// `sqlite` or `postgres`.
    public let name: String
    /// Column type for 64-bit integers and timestamps (microseconds since 1970).
    public let bigint: String
    /// Column type for binary data.
    public let blob: String
    /// Column type for booleans (stored as 0/1 on SQLite).
    public let boolean: String
    /// Column type for floating point numbers.
    public let double: String
    /// Appended to a `SELECT` that must lock the rows it reads until commit
    /// (empty on SQLite, where a write transaction already holds the only write lock).
    public let forUpdate: String
    /// Appended to a `SELECT` that claims jobs other nodes may also be claiming.
    public let forUpdateSkipLocked: String
    /// Run first in every migration transaction so migrators in several processes take
    /// turns. `nil` on SQLite, where `BEGIN IMMEDIATE` already holds the one write lock.
    public let migrationLock: String?
    /// Takes a lock named by one 64-bit key until the transaction ends, so that nodes doing
    /// the same thing take turns; `nil` where one write transaction at a time is all there is.
    public let transactionLock: String?
    /// The same, named by a text (hashed by the database).
    public let transactionLockByName: String?
    /// Queues a notice (channel, payload) that the database delivers to every listening node
    /// if the transaction commits; `nil` where there is one node and nobody to tell.
    public let notify: String?
    /// Whether several nodes may share the database (so one node's restart says nothing of
    /// the others' work).
    public let sharedByNodes: Bool
    /// The literal of `true` in a column of type ``boolean``.
    public let trueLiteral: String
    /// Whether a statement may carry writes as data-modifying `WITH` clauses (see
    /// `DatabaseConnection.send(_:_:carrying:)`); SQLite's `WITH` only reads.
    public let writesInWith: Bool

    public static let sqlite = SQLDialect(
        name: "sqlite", bigint: "INTEGER", blob: "BLOB", boolean: "INTEGER", double: "REAL",
        forUpdate: "", forUpdateSkipLocked: "", migrationLock: nil, transactionLock: nil, transactionLockByName: nil, notify: nil,
        sharedByNodes: false, trueLiteral: "1", writesInWith: false
    )
    public static let postgres = SQLDialect(
        name: "postgres", bigint: "BIGINT", blob: "BYTEA", boolean: "BOOLEAN", double: "DOUBLE PRECISION",
        forUpdate: " FOR UPDATE", forUpdateSkipLocked: " FOR UPDATE SKIP LOCKED",
        // A transaction-scoped advisory lock is released by COMMIT or ROLLBACK, so a
        // migrator that dies mid-way never leaves the lock behind. The key is arbitrary
        // but fixed: every Gatehouse binary must use the same one.
        migrationLock: "SELECT pg_advisory_xact_lock(7428150983625310001)",
        transactionLock: "SELECT pg_advisory_xact_lock(?)", transactionLockByName: "SELECT pg_advisory_xact_lock(hashtext(?))",
        notify: "SELECT pg_notify(?, ?)", sharedByNodes: true, trueLiteral: "TRUE", writesInWith: true
    )
}
