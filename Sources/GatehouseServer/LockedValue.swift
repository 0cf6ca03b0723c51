import Foundation

// Safe: `value` is only read and written inside `withLock`, under `lock`. `Value` need not be Sendable, so what `body`
// returns may escape the lock: every use in Sources holds a Task or a URL, which are Sendable.
/// A value shared across threads behind a lock.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
