import GatehouseDatabase

/// A database whose transactions pause before the first statement whose SQL contains
/// `marker`: what they sent before it is answered, then `pause` runs (on the transaction's
/// thread), then the statement goes on. A test's way to have another transaction commit
/// between two statements of one transaction, which PostgreSQL's READ COMMITTED lets the
/// second one see.
public final class InterposingDatabase: Database, @unchecked Sendable {
    public let base: any Database
    let marker: String
    let pause: () throws -> Void

    /// - Parameter pause: runs once per statement that contains `marker`.
    public init(_ base: any Database, pausingBefore marker: String, pause: @escaping () throws -> Void) {
        self.base = base
        self.marker = marker
        self.pause = pause
    }

    public var dialect: SQLDialect { base.dialect }

    @discardableResult
    public func readBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try base.readBlocking { try body(InterposingConnection(base: $0, owner: self)) }
    }

    @discardableResult
    public func writeBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try base.writeBlocking { try body(InterposingConnection(base: $0, owner: self)) }
    }

    public func ping() throws { try base.ping() }
    public func close() { base.close() }
}

private final class InterposingConnection: DatabaseConnection {
    let base: any DatabaseConnection
    let owner: InterposingDatabase

    init(base: any DatabaseConnection, owner: InterposingDatabase) {
        self.base = base
        self.owner = owner
    }

    var dialect: SQLDialect { base.dialect }

    private func interpose(_ sql: String) throws {
        guard sql.contains(owner.marker) else { return }
        // Everything sent so far runs and is answered before the pause.
        _ = try base.query("SELECT 1", [])
        try owner.pause()
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try interpose(sql)
        return try base.execute(sql, arguments)
    }

    func query(_ sql: String, _ arguments: [SQLValue]) throws -> [Row] {
        try interpose(sql)
        return try base.query(sql, arguments)
    }

    func send(_ sql: String, _ arguments: [SQLValue]) throws -> SentStatement {
        try interpose(sql)
        return try base.send(sql, arguments)
    }

    func executeScript(_ sql: String) throws { try base.executeScript(sql) }

    func afterCommit(_ work: @escaping () -> Void) { base.afterCommit(work) }
}
