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

    public static let sqlite = SQLDialect(
        name: "sqlite", bigint: "INTEGER", blob: "BLOB", boolean: "INTEGER", double: "REAL",
        forUpdate: "", forUpdateSkipLocked: ""
    )
    public static let postgres = SQLDialect(
        name: "postgres", bigint: "BIGINT", blob: "BYTEA", boolean: "BOOLEAN", double: "DOUBLE PRECISION",
        forUpdate: " FOR UPDATE", forUpdateSkipLocked: " FOR UPDATE SKIP LOCKED"
    )
}
