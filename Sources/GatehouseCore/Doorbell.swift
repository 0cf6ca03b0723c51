import Foundation

// Safe: `rung`, `waiters` and `nextWaiter` are only read and written under `lock`.
/// Wakes a waiting worker at once. A request that left work rings; the worker's loop waits
/// with a timeout, so that it also finds, by polling, work that other nodes left. A ring
/// while no one waits is kept for the next wait.
public final class Doorbell: @unchecked Sendable {
    private let lock = NSLock()
    private var rung = false
    private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter: UInt64 = 0

    public init() {}

    public func ring() {
        let woken = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            if waiters.isEmpty { rung = true }
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns when rung, once `timeout` seconds of `clock` have passed, or when the task is
    /// cancelled.
    public func wait(upTo timeout: TimeInterval, clock: any Clock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForRing() }
            group.addTask { try? await clock.sleep(for: max(0, timeout)) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForRing() async {
        let id = lock.withLock { () -> UInt64 in
            nextWaiter += 1
            return nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = lock.withLock { () -> Bool in
                    if rung {
                        rung = false
                        return true
                    }
                    if Task.isCancelled { return true }
                    waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            lock.withLock { waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
