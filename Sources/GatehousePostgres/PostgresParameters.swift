import CPostgres
import GatehouseDatabase

/// Arguments laid out as the parallel C arrays `PQexecPrepared` takes.
///
/// Values travel in text format, except blobs, which go as binary `bytea` so no escaping
/// is involved. Every non-NULL value carries its type OID (bigint, double precision,
/// boolean, bytea, text), so a bare `SELECT ?` or `? IS NULL` means the same as on SQLite;
/// NULL stays untyped (OID 0) so it fits any column and the server infers its type.
/// See https://www.postgresql.org/docs/current/libpq-exec.html.
struct PostgresParameters {
    let types: [Oid]
    let values: [UnsafeMutablePointer<CChar>?]
    /// `values` as the `const char *const *` libpq takes.
    var cValues: [UnsafePointer<CChar>?] { values.map { $0.map { UnsafePointer($0) } } }
    let lengths: [Int32]
    let formats: [Int32]
    var count: Int32 { Int32(types.count) }

    /// Lends `body` the laid-out arguments, freeing their buffers when it returns.
    static func with<T>(_ arguments: [SQLValue], sql: String, _ body: (PostgresParameters) throws -> T) throws -> T {
        let parameters = try PostgresParameters(arguments, sql: sql)
        defer { parameters.values.forEach { $0?.deallocate() } }
        return try body(parameters)
    }

    private init(_ arguments: [SQLValue], sql: String) throws {
        var types: [Oid] = [], values: [UnsafeMutablePointer<CChar>?] = [], lengths: [Int32] = []
        var formats: [Int32] = []
        for argument in arguments {
            let (type, bytes, format): (Oid, [UInt8]?, Int32)
            switch argument {
            case .null: (type, bytes, format) = (0, nil, 0)
            case .integer(let v): (type, bytes, format) = (PostgresOID.int8, Array(String(v).utf8), 0)
            case .double(let v): (type, bytes, format) = (PostgresOID.float8, Array(Self.text(v).utf8), 0)
            case .boolean(let v): (type, bytes, format) = (PostgresOID.bool, Array((v ? "t" : "f").utf8), 0)
            case .blob(let v): (type, bytes, format) = (PostgresOID.bytea, v, 1)
            case .text(let v):
                // Text-format values are C strings to libpq, so a NUL would silently cut the
                // value short; PostgreSQL text cannot hold one anyway.
                guard !v.utf8.contains(0) else {
                    values.forEach { $0?.deallocate() }
                    throw DatabaseError(
                        kind: .other, code: "22021", message: "text argument contains a NUL byte", sql: sql
                    )
                }
                (type, bytes, format) = (PostgresOID.text, Array(v.utf8), 0)
            }
            types.append(type)
            formats.append(format)
            lengths.append(Int32(bytes?.count ?? 0))
            values.append(bytes.map(Self.copy))
        }
        (self.types, self.values, self.lengths, self.formats) = (types, values, lengths, formats)
    }

    /// A NUL-terminated copy; never a null pointer, because libpq reads a null pointer as
    /// SQL NULL, which would turn an empty blob or string into NULL.
    private static func copy(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        bytes.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(pointer).copyMemory(from: raw.baseAddress ?? UnsafeRawPointer(pointer), byteCount: raw.count)
        }
        pointer[bytes.count] = 0
        return pointer
    }

    /// PostgreSQL spells the special values differently from Swift's `description`.
    private static func text(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return "\(value)"
    }
}
