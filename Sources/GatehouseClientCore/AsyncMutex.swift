import Foundation

// Safe: `held` and `waiters` are only read and written under `lock`.
/// A first-come, first-served lock for async code in one process; waiters suspend instead of blocking a thread.
package final class AsyncMutex: @unchecked Sendable {
    private let lock = NSLock()
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package init() {}

    package func withLock<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = lock.withLock {
                if held {
                    waiters.append(continuation)
                    return false
                }
                held = true
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        // The lock passes straight to the next waiter, so `held` stays true and nobody can jump the queue.
        let next = lock.withLock {
            if waiters.isEmpty {
                held = false
                return nil as CheckedContinuation<Void, Never>?
            }
            return waiters.removeFirst()
        }
        next?.resume()
    }
}
