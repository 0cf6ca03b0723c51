import Foundation

/// A first-come, first-served lock for async code; waiters suspend instead of blocking a thread.
final class AsyncSerial: @unchecked Sendable {
    private let lock = NSLock()
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func run<T>(_ body: () async throws -> T) async rethrows -> T {
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
        // The lock passes straight to the next waiter, so nobody can jump the queue.
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            if waiters.isEmpty {
                held = false
                return nil
            }
            return waiters.removeFirst()
        }
        next?.resume()
    }
}
