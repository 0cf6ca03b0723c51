import CSQLite
import GatehouseDatabase

/// Turns SQLite result codes into `DatabaseError`s: every C call that can fail goes through
/// ``check(_:_:sql:)``, so the mapping to `DatabaseError.Kind` lives in one place.
enum SQLiteResultCode {
    // Extended codes are C macros built with `|` and `<<`, which Swift does not import.
    static let constraintCheck: Int32 = 19 | (1 << 8)
    static let constraintForeignKey: Int32 = 19 | (3 << 8)
    static let constraintNotNull: Int32 = 19 | (5 << 8)
    static let constraintPrimaryKey: Int32 = 19 | (6 << 8)
    static let constraintUnique: Int32 = 19 | (8 << 8)
    static let constraintRowID: Int32 = 19 | (10 << 8)

    /// Throws unless `code` reports success (`OK`, or `ROW`/`DONE` from a step).
    ///
    /// The error carries the statement's SQL but never its bound values, which may be
    /// secrets; SQLite's own messages name columns and constraints, not values.
    static func check(_ code: Int32, _ db: OpaquePointer?, sql: String?) throws {
        guard code != SQLITE_OK, code != SQLITE_ROW, code != SQLITE_DONE else { return }
        // A step reports a primary code unless extended codes are on; ask the handle for
        // the extended one so UNIQUE and FOREIGN KEY stay distinguishable.
        let extended = db.map { sqlite3_extended_errcode($0) } ?? code
        let effective = (extended & 0xff) == (code & 0xff) ? extended : code
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        throw DatabaseError(kind: kind(for: effective), code: "\(effective)", message: message, sql: sql)
    }

    static func kind(for code: Int32) -> DatabaseError.Kind {
        switch code {
        case constraintUnique, constraintPrimaryKey, constraintRowID: return .uniqueViolation
        case constraintForeignKey: return .foreignKeyViolation
        default: break
        }
        switch code & 0xff {
        case SQLITE_CONSTRAINT: return .constraintViolation
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_CANTOPEN, SQLITE_NOTADB: return .connection
        default: return .other
        }
    }
}
