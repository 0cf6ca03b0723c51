import Foundation

// Safe: `value` is only read and written under `lock`.
/// Counts schema changes made through one ``PostgresDatabase``.
///
/// A prepared statement's cached plan fails with "cached plan must not change result type"
/// once a table it reads changes shape. A connection that runs DDL bumps this counter, and
/// every connection compares it with the value it last saw before starting a transaction,
/// dropping its prepared statements when they may be stale.
final class PostgresSchemaVersion: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    var current: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func bump() {
        lock.lock()
        value += 1
        lock.unlock()
    }
}
