import Foundation

// Safe: `queue`, `head`, `threads` and `idle` are only read and written under `condition`; `name` and `maxThreads` are
// immutable `let`s. Each queued closure runs once, on one pool thread; its callers in Sources capture only values and
// their own continuation.
/// Threads that run blocking work (database calls for the `async` `read` and `write`, an SMTP
/// conversation) off the Swift concurrency pool, whose few threads must never wait on a socket.
///
/// Not a concurrent `DispatchQueue`: on Linux, GCD sizes its worker pool to the CPU count
/// and does not notice threads blocked in a socket read or a pool checkout, so two cores
/// ran about two transactions at a time however many connections the pool had. Here a
/// thread is added whenever every existing one is busy, up to `maxThreads`; the driver's
/// own connection pool then decides how many actually reach the database.
///
/// Unchecked Sendable: every field but the constants is guarded by `condition`.
package final class BlockingThreadPool: @unchecked Sendable {
    /// The database calls' pool.
    package static let database = BlockingThreadPool(name: "gatehouse.database", maxThreads: 64)

    private let name: String
    private let maxThreads: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queue: [() -> Void] = []
    private var head = 0
    private var threads = 0
    private var idle = 0

    package init(name: String, maxThreads: Int) {
        self.name = name
        self.maxThreads = maxThreads
    }

    /// Runs `work` on a pool thread, starting a thread when none is free to take it.
    package func run(_ work: @escaping () -> Void) {
        condition.lock()
        queue.append(work)
        // Idle threads stay counted until they wake, so a burst of calls cannot all be
        // promised to the same sleeping thread.
        if queue.count - head > idle && threads < maxThreads {
            threads += 1
            let thread = Thread { [self] in loop() }
            thread.name = name
            thread.start()
        }
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        condition.lock()
        while true {
            if head < queue.count {
                let work = queue[head]
                head += 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                }
                condition.unlock()
                work()
                condition.lock()
            } else {
                idle += 1
                condition.wait()
                idle -= 1
            }
        }
    }
}
