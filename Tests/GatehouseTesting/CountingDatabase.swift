import Foundation
import GatehouseDatabase

/// A database that counts the transactions run through it, so a test can prove that a read
/// endpoint writes nothing.
public final class CountingDatabase: Database, @unchecked Sendable {
    public let base: any Database
    private let lock = NSLock()
    private var writeCount = 0
    private var readCount = 0

    public init(_ base: any Database) { self.base = base }

    public var dialect: SQLDialect { base.dialect }
    /// Write transactions so far.
    public var writes: Int { lock.withLock { writeCount } }
    /// Read transactions so far.
    public var reads: Int { lock.withLock { readCount } }

    @discardableResult
    public func readBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        lock.withLock { readCount += 1 }
        return try base.readBlocking(body)
    }

    @discardableResult
    public func writeBlocking<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        lock.withLock { writeCount += 1 }
        return try base.writeBlocking(body)
    }

    public func ping() throws { try base.ping() }
    public func close() { base.close() }
}
