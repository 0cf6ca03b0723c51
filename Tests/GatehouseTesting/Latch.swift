import Foundation

/// An event a test awaits instead of polling: signalled once, it resumes every waiter, those
/// that came before and those that come after.
public final class Latch: @unchecked Sendable {
    private let lock = NSLock()
    private var signalled = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init() {}

    public var isSignalled: Bool { lock.withLock { signalled } }

    public func signal() {
        let woken = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            signalled = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in woken { waiter.resume() }
    }

    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if signalled { return true }
                waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
