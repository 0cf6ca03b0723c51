/// A failure from a database driver. It carries the SQL text but never the bound values,
/// which may be secrets.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// A UNIQUE or PRIMARY KEY constraint refused the row.
        case uniqueViolation
        /// A FOREIGN KEY constraint refused the change.
        case foreignKeyViolation
        /// A NOT NULL or CHECK constraint refused the row.
        case constraintViolation
        /// The database stayed locked past the busy timeout, or a serialization failure.
        case busy
        /// The connection could not be made or was lost.
        case connection
        /// The database was closed.
        case closed
        /// The migrator refused to run.
        case migration
        /// Anything else the driver reported.
        case other
    }

    public let kind: Kind
    /// The driver's own code (SQLite extended result code, PostgreSQL SQLSTATE).
    public let code: String
    public let message: String
    public let sql: String?

    public init(kind: Kind, code: String, message: String, sql: String? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.sql = sql
    }

    public static let closed = DatabaseError(kind: .closed, code: "closed", message: "database is closed")

    public var description: String {
        "DatabaseError(\(kind), \(code)): \(message)" + (sql.map { " [SQL: \($0)]" } ?? "")
    }
}
