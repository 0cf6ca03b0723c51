import Foundation

// Safe: `busy` and `idleWaiters` are only read and written under `lock`.
/// Counts a worker's jobs in hand, so that `untilIdle()` can wait for the last one to end
/// without polling (tests drain workers this way instead of sleeping).
public final class InFlight: @unchecked Sendable {
    private let lock = NSLock()
    private var busy = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    public init() {}

    /// How many jobs are in hand.
    public var count: Int { lock.withLock { busy } }

    /// `jobs` more are in hand.
    public func enter(_ jobs: Int = 1) { lock.withLock { busy += jobs } }

    /// `jobs` (one unless said) have ended; the last one wakes every `untilIdle()`.
    public func leave(_ jobs: Int = 1) {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            busy -= jobs
            guard busy == 0 else { return [] }
            defer { idleWaiters.removeAll() }
            return idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once nothing is in hand.
    public func untilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = lock.withLock { () -> Bool in
                if busy == 0 { return true }
                idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }
}
