import Foundation

// Safe: `running`, and each Entry's `waiters`, are only read and written under `lock`; `cancelsWithLastWaiter` is a `let`.
/// At most one task per key: callers that arrive while one runs await its result instead of starting another
/// (supabase-swift, Nango). The entry goes with its last waiter, so a failure never wedges the key.
final class SingleFlight<Value: Sendable>: @unchecked Sendable {
    // Safe: `waiters` is only read and written under the owning SingleFlight's `lock`; `task` is an immutable `let` Task.
    private final class Entry: @unchecked Sendable {
        let task: Task<Value, any Error>
        var waiters = 1
        init(_ task: Task<Value, any Error>) { self.task = task }
    }

    private let lock = NSLock()
    private var running: [String: Entry] = [:]
    /// Whether the work stops when its last waiter is cancelled (a consent sheet), or always runs to its end
    /// (a refresh, whose rotated token must be saved even if nobody waits for it any more).
    private let cancelsWithLastWaiter: Bool

    init(cancelsWithLastWaiter: Bool) { self.cancelsWithLastWaiter = cancelsWithLastWaiter }

    /// The running task's value for `key`, or `work`'s, started now.
    func run(_ key: String, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let entry = lock.withLock { () -> Entry in
            if let entry = running[key] {
                entry.waiters += 1
                return entry
            }
            let entry = Entry(Task { try await work() })
            running[key] = entry
            return entry
        }
        defer {
            lock.withLock {
                entry.waiters -= 1
                if entry.waiters == 0, running[key] === entry { running[key] = nil }
            }
        }
        return try await withTaskCancellationHandler {
            try await entry.task.value
        } onCancel: {
            guard cancelsWithLastWaiter else { return }
            if lock.withLock({ entry.waiters == 1 }) { entry.task.cancel() }
        }
    }
}
