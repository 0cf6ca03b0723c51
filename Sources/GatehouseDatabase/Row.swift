/// One result row: values in column order, readable by name.
public struct Row: Sendable, Equatable {
    public let columns: [String]
    public let values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The raw value of a column, or `nil` when the row has no such column.
    public subscript(column: String) -> SQLValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }

    /// Decodes a column as `T`; a missing column or a wrong type throws.
    public func get<T: SQLValueConvertible>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let value = self[column] else {
            throw SQLDecodingError(column: column, expected: "\(T.self)", found: .null)
        }
        do { return try T(sqlValue: value) } catch let error as SQLDecodingError {
            throw SQLDecodingError(column: column, expected: error.expected, found: value)
        }
    }
}
