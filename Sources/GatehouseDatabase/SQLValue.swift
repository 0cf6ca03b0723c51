import Foundation

/// A value bound to, or read from, a SQL statement.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
    case boolean(Bool)
}

/// A Swift type that can be bound to and decoded from SQL.
public protocol SQLValueConvertible {
    var sqlValue: SQLValue { get }
    init(sqlValue: SQLValue) throws
}

/// Raised when a column's value does not fit the requested Swift type.
public struct SQLDecodingError: Error, CustomStringConvertible {
    public let column: String?
    public let expected: String
    public let found: String
    public init(column: String? = nil, expected: String, found: SQLValue) {
        self.column = column
        self.expected = expected
        switch found {
        case .null: self.found = "null"
        case .integer: self.found = "integer"
        case .double: self.found = "double"
        case .text: self.found = "text"
        case .blob: self.found = "blob"
        case .boolean: self.found = "boolean"
        }
    }
    public var description: String { "column \(column ?? "?"): expected \(expected), found \(found)" }
}

extension SQLValue: SQLValueConvertible {
    public var sqlValue: SQLValue { self }
    public init(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self) }
    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .integer(let v): self = v
        case .boolean(let b): self = b ? 1 : 0
        default: throw SQLDecodingError(expected: "integer", found: sqlValue)
        }
    }
}

extension Int: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init(sqlValue: SQLValue) throws { self = Int(try Int64(sqlValue: sqlValue)) }
}

extension Double: SQLValueConvertible {
    public var sqlValue: SQLValue { .double(self) }
    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .double(let v): self = v
        case .integer(let v): self = Double(v)
        default: throw SQLDecodingError(expected: "double", found: sqlValue)
        }
    }
}

extension String: SQLValueConvertible {
    public var sqlValue: SQLValue { .text(self) }
    public init(sqlValue: SQLValue) throws {
        guard case .text(let v) = sqlValue else { throw SQLDecodingError(expected: "text", found: sqlValue) }
        self = v
    }
}

extension Bool: SQLValueConvertible {
    public var sqlValue: SQLValue { .boolean(self) }
    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .boolean(let b): self = b
        case .integer(let v): self = v != 0
        default: throw SQLDecodingError(expected: "boolean", found: sqlValue)
        }
    }
}

extension Data: SQLValueConvertible {
    public var sqlValue: SQLValue { .blob([UInt8](self)) }
    public init(sqlValue: SQLValue) throws {
        guard case .blob(let v) = sqlValue else { throw SQLDecodingError(expected: "blob", found: sqlValue) }
        self = Data(v)
    }
}

extension Array: SQLValueConvertible where Element == UInt8 {
    public var sqlValue: SQLValue { .blob(self) }
    public init(sqlValue: SQLValue) throws {
        guard case .blob(let v) = sqlValue else { throw SQLDecodingError(expected: "blob", found: sqlValue) }
        self = v
    }
}

/// Timestamps are stored as whole microseconds since 1970 on every driver, so ordering,
/// arithmetic and equality behave the same on SQLite and PostgreSQL.
extension Date: SQLValueConvertible {
    /// Microseconds since 1970, held to Int64's range (a date past it, from hostile input, must
    /// not trap the process).
    public var sqlValue: SQLValue {
        let micros = (timeIntervalSince1970 * 1_000_000).rounded()
        guard micros.isFinite else { return .integer(0) }
        return .integer(micros >= 9.2e18 ? Int64.max : micros <= -9.2e18 ? Int64.min : Int64(micros))
    }
    public init(sqlValue: SQLValue) throws {
        self = Date(timeIntervalSince1970: Double(try Int64(sqlValue: sqlValue)) / 1_000_000)
    }
}

extension UUID: SQLValueConvertible {
    public var sqlValue: SQLValue { .text(uuidString.lowercased()) }
    public init(sqlValue: SQLValue) throws {
        guard case .text(let v) = sqlValue, let id = UUID(uuidString: v) else {
            throw SQLDecodingError(expected: "uuid text", found: sqlValue)
        }
        self = id
    }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
    public init(sqlValue: SQLValue) throws {
        if case .null = sqlValue { self = .none } else { self = .some(try Wrapped(sqlValue: sqlValue)) }
    }
}
