import CSQLite
import GatehouseDatabase

/// One prepared statement, owned by a single ``SQLiteConnection`` and cached there.
///
/// Every use binds, steps to completion and resets, so a cached statement never holds a
/// read snapshot open between uses.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private let db: OpaquePointer

    init(db: OpaquePointer, sql: String) throws {
        var handle: OpaquePointer?
        var hasMore = false
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(db, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, &tail)
            hasMore = code == SQLITE_OK && Self.hasStatement(db, tail)
            return code
        }
        try SQLiteResultCode.check(code, db, sql: sql)
        guard let handle, !hasMore else {
            // SQLite would silently ignore every statement after the first, where PostgreSQL
            // refuses; refusing here too keeps the drivers alike.
            sqlite3_finalize(handle)
            throw DatabaseError(
                kind: .other, code: "\(SQLITE_MISUSE)",
                message: handle == nil ? "no SQL statement to run" : "several statements: use executeScript", sql: sql
            )
        }
        self.handle = handle
        self.db = db
        self.sql = sql
    }

    /// Whether `tail` holds another statement, not just whitespace and comments.
    private static func hasStatement(_ db: OpaquePointer, _ tail: UnsafePointer<CChar>?) -> Bool {
        guard let tail, tail.pointee != 0 else { return false }
        var next: OpaquePointer?
        guard sqlite3_prepare_v2(db, tail, -1, &next, nil) == SQLITE_OK else { return true }
        defer { sqlite3_finalize(next) }
        return next != nil
    }

    func finalize() {
        sqlite3_finalize(handle)
    }

    /// Binds `arguments`, runs the statement and returns every row it produced.
    func run(_ arguments: [SQLValue]) throws -> [Row] {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == arguments.count else {
            throw DatabaseError(
                kind: .other, code: "\(SQLITE_RANGE)",
                message: "statement expects \(expected) arguments, got \(arguments.count)", sql: sql
            )
        }
        for (offset, value) in arguments.enumerated() {
            try SQLiteResultCode.check(bind(value, at: Int32(offset + 1)), db, sql: sql)
        }
        let columns = (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
        var rows: [Row] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return rows }
            try SQLiteResultCode.check(code, db, sql: sql)
            rows.append(Row(columns: columns, values: (0..<Int32(columns.count)).map(column)))
        }
    }

    private func bind(_ value: SQLValue, at index: Int32) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(handle, index)
        case .integer(let v):
            return sqlite3_bind_int64(handle, index, v)
        case .double(let v):
            return sqlite3_bind_double(handle, index, v)
        case .boolean(let v):
            // SQLite has no boolean type; 0/1 integers are what its own TRUE/FALSE mean.
            return sqlite3_bind_int64(handle, index, v ? 1 : 0)
        case .text(let v):
            var text = v
            return text.withUTF8 { utf8 in
                // An empty buffer may have no base address, which SQLite would bind as NULL.
                guard let base = utf8.baseAddress, !utf8.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                    sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let bytes):
            // A nil pointer binds NULL, so an empty blob needs zeroblob(0) to stay a blob.
            guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return bytes.withUnsafeBytes {
                sqlite3_bind_blob64(handle, index, $0.baseAddress, sqlite3_uint64($0.count), csqlite_transient())
            }
        }
    }

    private func column(_ index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .double(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // Read with the byte count rather than as a C string: text may hold NUL bytes.
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let pointer = sqlite3_column_blob(handle, index)
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let pointer, count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default:
            return .null
        }
    }
}
