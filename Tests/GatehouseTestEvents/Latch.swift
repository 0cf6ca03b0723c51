import Foundation

/// An event a test awaits instead of polling for it: once signalled, it resumes every waiter, those
/// that came before and those that come after. Safe to signal from synchronous code (a store's hook).
public final class Latch: @unchecked Sendable {
    private let lock = NSLock()
    private var signalled = false
    private var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    private var expired: Set<Int> = []
    private var lastID = 0

    /// A latch not yet signalled.
    public init() {}

    public var isSignalled: Bool { lock.withLock { signalled } }

    public func signal() {
        let woken = lock.withLock { () -> [CheckedContinuation<Bool, Never>] in
            signalled = true
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for waiter in woken { waiter.resume(returning: true) }
    }

    /// Whether the signal came; `false` after `timeout`, so a regression fails the test instead of hanging the suite.
    /// The default is long: it costs nothing when the signal comes, and a suite on two loaded
    /// cores can leave a waiting task unscheduled for many seconds.
    public func wait(timeout: Duration = .seconds(60)) async -> Bool {
        let id = lock.withLock { () -> Int in
            lastID += 1
            return lastID
        }
        // A timeout guard, not a poll: it sleeps once and is cancelled as soon as the signal comes.
        let timer = Task {
            do { try await Task.sleep(for: timeout) } catch { return }
            self.expire(id)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now = lock.withLock { () -> Bool? in
                if signalled { return true }
                if expired.contains(id) { return false }
                waiters[id] = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Waits for the signal however long it takes (the test's own time limit applies).
    public func wait() async {
        _ = await wait(timeout: .seconds(24 * 3600))
    }

    private func expire(_ id: Int) {
        let waiter = lock.withLock { () -> CheckedContinuation<Bool, Never>? in
            if let waiter = waiters.removeValue(forKey: id) { return waiter }
            expired.insert(id)
            return nil
        }
        waiter?.resume(returning: false)
    }
}
