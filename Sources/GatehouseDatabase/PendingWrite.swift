/// A write whose answer nobody reads (a counter's upsert, a queue row), kept until it is sent
/// on its own or carried by a statement that is (``DatabaseConnection/send(_:_:carrying:)``).
public struct PendingWrite: Sendable, Equatable {
    public let sql: String
    public let arguments: [SQLValue]

    public init(_ sql: String, _ arguments: [SQLValue]) {
        self.sql = sql
        self.arguments = arguments
    }
}

extension DatabaseConnection {
    /// Sends `sql` with `writes` ahead of it. Where the dialect can (``SQLDialect/writesInWith``,
    /// PostgreSQL) it is one statement, each write a data-modifying `WITH` of it, so the writes
    /// cost no statement of their own: they then all run on the snapshot taken before any of
    /// them, see none of each other's changes, and must not touch a row that another of them or
    /// `sql` touches; `sql` must not read what they write (it would see it on SQLite only), and
    /// none of them may have a `WITH` of its own. Elsewhere they are sent one after another,
    /// then `sql`. Either way an error of any of them is the statement's.
    public func send(_ sql: String, _ arguments: [SQLValue], carrying writes: [PendingWrite]) throws -> SentStatement {
        assert(([sql] + writes.map(\.sql)).allSatisfy { !$0.uppercased().hasPrefix("WITH") }, "a carried write or its carrier has a WITH")
        guard !writes.isEmpty else { return try send(sql, arguments) }
        guard dialect.writesInWith else {
            try send(writes)
            return try send(sql, arguments)
        }
        let clauses = writes.indices.map { "write\($0) AS (\(writes[$0].sql))" }.joined(separator: ", ")
        return try send("WITH \(clauses)\n\(sql)", writes.flatMap(\.arguments) + arguments)
    }

    /// Sends `writes` one after another, without waiting for their answers.
    public func send(_ writes: [PendingWrite]) throws {
        for write in writes { _ = try send(write.sql, write.arguments) }
    }
}
