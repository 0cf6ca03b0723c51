import CPostgres
import GatehouseDatabase

/// Type OIDs of the built-in types the driver binds or decodes specially
/// (`SELECT oid, typname FROM pg_type`).
enum PostgresOID {
    static let bool: Oid = 16, bytea: Oid = 17, int8: Oid = 20, int2: Oid = 21, int4: Oid = 23, text: Oid = 25
    static let float4: Oid = 700, float8: Oid = 701, numeric: Oid = 1700
}

/// Reads text-format result fields into `SQLValue`s by column type: integers, floating
/// point and numeric, booleans and bytea get their own cases, every other type is text.
enum PostgresValueDecoder {
    /// Decodes one result field (text format) by its column type.
    static func decode(_ result: OpaquePointer, row: Int32, column: Int32) -> SQLValue {
        if PQgetisnull(result, row, column) != 0 { return .null }
        let pointer = PQgetvalue(result, row, column)!
        let length = Int(PQgetlength(result, row, column))
        let buffer = UnsafeRawBufferPointer(start: pointer, count: length)
        let text = { String(decoding: buffer, as: UTF8.self) }
        switch PQftype(result, column) {
        case PostgresOID.int2, PostgresOID.int4, PostgresOID.int8:
            return Int64(text()).map(SQLValue.integer) ?? .text(text())
        case PostgresOID.float4, PostgresOID.float8, PostgresOID.numeric:
            return Double(text()).map(SQLValue.double) ?? .text(text())
        case PostgresOID.bool:
            return .boolean(buffer.first == UInt8(ascii: "t"))
        case PostgresOID.bytea:
            return hexDecoded(buffer).map(SQLValue.blob) ?? .text(text())
        default:
            return .text(text())
        }
    }

    /// `bytea` in hex output format: `\x` then two hex digits per byte.
    private static func hexDecoded(_ buffer: UnsafeRawBufferPointer) -> [UInt8]? {
        guard buffer.count >= 2, buffer[0] == UInt8(ascii: "\\"), buffer[1] == UInt8(ascii: "x"),
              buffer.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity((buffer.count - 2) / 2)
        var index = 2
        while index < buffer.count {
            guard let high = nibble(buffer[index]), let low = nibble(buffer[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
