import Foundation

/// Work that joins the first write transaction committed in its scope: the console's audit
/// row, written in the transaction of the change it records whatever engine makes the change.
///
/// ```swift
/// let audit = TransactionAppendix { db in try db.execute("INSERT INTO console_audit …", …) }
/// try await TransactionAppendix.$current.withValue(audit) { try await directory.createTenant(name: name) }
/// ```
///
/// A write that throws (rolled back) leaves it for the next write in scope; a scope whose
/// writes all fail, or that writes nothing, appends nothing. It takes effect through
/// `AppendingDatabase`, the decorator every engine's database is wrapped in.
public final class TransactionAppendix: @unchecked Sendable {
    @TaskLocal public static var current: TransactionAppendix?

    let work: @Sendable (any DatabaseConnection) throws -> Void
    private let lock = NSLock()
    private var state = State.waiting

    enum State { case waiting, inFlight, written }

    public init(_ work: @escaping @Sendable (any DatabaseConnection) throws -> Void) {
        self.work = work
    }

    /// True once a transaction that carried it committed.
    public var isWritten: Bool { lock.withLock { state == .written } }

    /// Claims it for one transaction; false when another has it or had it.
    func claim() -> Bool {
        lock.withLock {
            guard state == .waiting else { return false }
            state = .inFlight
            return true
        }
    }

    func settle(committed: Bool) {
        lock.withLock { state = committed ? .written : .waiting }
    }
}

/// A database whose write transactions take the scope's `TransactionAppendix`, if any.
/// Everything else goes to the database beneath as it is.
public final class AppendingDatabase: Database {
    public let base: any Database

    public init(_ base: any Database) { self.base = base }

    public var dialect: SQLDialect { base.dialect }

    public func readBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T { try base.readBlocking(body) }

    public func readIfImmediate<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T? { try base.readIfImmediate(body) }

    public func read<T: Sendable>(
        _ body: @escaping @Sendable (any DatabaseConnection) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        base.read(body, completion: completion)
    }

    public func writeBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        guard let appendix = TransactionAppendix.current, appendix.claim() else { return try base.writeBlocking(body) }
        do {
            let value = try base.writeBlocking { db in
                let value = try body(db)
                try appendix.work(db)
                return value
            }
            appendix.settle(committed: true)
            return value
        } catch {
            appendix.settle(committed: false)
            throw error
        }
    }

    public func write<T: Sendable>(
        _ body: @escaping @Sendable (any DatabaseConnection) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        guard let appendix = TransactionAppendix.current, appendix.claim() else { return base.write(body, completion: completion) }
        base.write(
            { db in
                let value = try body(db)
                try appendix.work(db)
                return value
            },
            completion: { result in
                if case .success = result { appendix.settle(committed: true) } else { appendix.settle(committed: false) }
                completion(result)
            })
    }

    public func ping() throws { try base.ping() }

    public func close() { base.close() }
}

/// Thrown inside a write that changed nothing, to roll it back so that nothing joined to it (an
/// operator's audit row) is written; `writeChanging` returns the value it carries instead.
public struct NothingChanged<Value: Sendable>: Error {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}

extension Database {
    /// `write`, where the body may end with `throw NothingChanged(value)`: the transaction is
    /// rolled back (there was nothing to keep) and `value` returned as if it had committed.
    @discardableResult
    public func writeChanging<T: Sendable>(_ body: @escaping @Sendable (any DatabaseConnection) throws -> T) async throws -> T {
        do {
            return try await write(body)
        } catch let unchanged as NothingChanged<T> {
            return unchanged.value
        }
    }
}
