import CSQLite
import Foundation
import GatehouseDatabase

// Safe: `queue`, `hasLeader`, `commits` and each Job's `isDone` and `isLeader` are only touched under `lock`; a Job's
// `failure` (and the result its closure sets) is written by the leader's thread and read by the job's own caller only
// after it has seen `isDone` under `lock`; `writer` and `maxBatch` are immutable `let`s.
/// Runs write closures on SQLite's single writer, several to a transaction.
///
/// A closure that arrives while a transaction is open waits and joins the next one. That
/// transaction runs each closure in a SAVEPOINT of its own: a closure that throws rolls back
/// alone and gets its own error, the others go on. Each caller learns its result only after
/// the shared COMMIT succeeded; when COMMIT (or BEGIN) fails, every closure of the batch gets
/// that error, just as a lone transaction's caller would. The wait for the disk's flush is
/// then shared by the whole batch, which is where a busy writer's time goes.
///
/// One of the waiting callers' threads runs the batch (the leader): no thread of its own,
/// and a batch never waits for one that is not there yet. Each blocked caller sleeps on a
/// wake of its own, which the leader signals once its batch is done (or it is to lead the
/// next), so a commit wakes the callers it finished and one more, not every thread that
/// waits. An asynchronous caller (`write(_:completion:)`) holds no thread while it waits:
/// it is told by its completion, and a batch it leads runs on a database thread.
final class SQLiteGroupCommit: @unchecked Sendable {
    /// One caller's closure and, once its batch is done, what became of it.
    final class Job {
        let run: (any DatabaseConnection) throws -> Void
        var failure: (any Error)?
        var isDone = false
        var isLeader = false
        let waiter: Waiter

        /// How the caller learns, once, that its batch is done or that it is to lead one.
        enum Waiter {
            /// Blocked in `write(_:)` on this semaphore.
            case blocked(DispatchSemaphore)
            /// Told of its batch's end with the job's failure, if any; leads on a database thread.
            case completion(((any Error)?) -> Void)
        }

        init(_ waiter: Waiter, _ run: @escaping (any DatabaseConnection) throws -> Void) {
            self.waiter = waiter
            self.run = run
        }
    }

    /// The most closures one transaction takes, so a flood cannot build one huge transaction.
    let maxBatch: Int
    private let writer: ConnectionPool<SQLiteConnection>
    private let lock = NSLock()
    // Guarded by `lock`.
    private var queue: [Job] = []
    private var hasLeader = false
    private var commits = 0

    init(writer: ConnectionPool<SQLiteConnection>, maxBatch: Int = 128) {
        self.writer = writer
        self.maxBatch = maxBatch
    }

    /// COMMITs that succeeded so far.
    var commitCount: Int { lock.withLock { commits } }
    /// Writes waiting for the next transaction.
    var waitingCount: Int { lock.withLock { queue.count } }

    /// Runs `body` in the next transaction and returns its result once that committed.
    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            var result: T?
            let wake = DispatchSemaphore(value: 0)
            let job = Job(.blocked(wake)) { connection in result = try body(connection) }
            try submit(job, wake: wake)
            // A job that did not fail has run, so its result is set.
            return result!
        }
    }

    /// Queues `body` for the next transaction and calls `completion` with its result once that
    /// is settled, on the thread that ran the batch.
    func write<T>(_ body: @escaping (any DatabaseConnection) throws -> T, completion: @escaping (Result<T, any Error>) -> Void) {
        let result = Box<T>()
        let job = Job(.completion({ failure in
            // A job that did not fail has run, so its result is set.
            completion(failure.map { .failure($0) } ?? .success(result.value!))
        })) { connection in result.value = try body(connection) }
        let leads = enqueue(job)
        if leads { BlockingThreadPool.database.run { [self] in lead(job).forEach { $0() } } }
    }

    /// Adds `job` to the queue; true when nobody leads, so that it leads the next batch.
    private func enqueue(_ job: Job) -> Bool {
        lock.withLock {
            queue.append(job)
            if !hasLeader {
                hasLeader = true
                job.isLeader = true
            }
            return job.isLeader
        }
    }

    private func submit(_ job: Job, wake: DispatchSemaphore) throws {
        if !enqueue(job) { wake.wait() }
        if !lock.withLock({ job.isDone }) {
            // Told once the batch is let go: a woken caller returns at once, and its closure
            // must not outlive `write` in the leader's hands.
            lead(job).forEach { $0() }
        }
        if let failure = job.failure { throw failure }
    }

    /// Runs the next batch (the queue's first job is the leader's own, so it is in it) and
    /// returns how to tell its callers (the leader too, if asynchronous) and the next leader.
    private func lead(_ job: Job) -> [() -> Void] {
        let batch = lock.withLock { () -> [Job] in
            let batch = Array(queue.prefix(maxBatch))
            queue.removeFirst(batch.count)
            return batch
        }
        let committed = run(batch)
        return lock.withLock {
            if committed { commits += 1 }
            batch.forEach { $0.isDone = true }
            var tell: [() -> Void] = batch.compactMap { done in
                switch done.waiter {
                case .blocked(let wake): return done === job ? nil : { wake.signal() }
                case .completion(let completion):
                    let failure = done.failure
                    return { completion(failure) }
                }
            }
            // Whoever waits first leads the next batch; the rest wait for it.
            if let next = queue.first {
                next.isLeader = true
                switch next.waiter {
                case .blocked(let wake): tell.append { wake.signal() }
                case .completion: tell.append { BlockingThreadPool.database.run { [self] in lead(next).forEach { $0() } } }
                }
            } else {
                hasLeader = false
            }
            return tell
        }
    }

    /// A result set by a job's closure and read by its completion, on the leader's thread.
    private final class Box<T> {
        var value: T?
    }

    /// Runs a batch in one transaction and reports whether it committed.
    private func run(_ batch: [Job]) -> Bool {
        do {
            return try writer.withConnection { connection in try transaction(batch, on: connection) }
        } catch {
            // The writer could not be had (the database is closed).
            batch.forEach { $0.failure = $0.failure ?? error }
            return false
        }
    }

    private func transaction(_ batch: [Job], on connection: SQLiteConnection) throws -> Bool {
        connection.commitHooks.discard()
        do {
            try connection.control("BEGIN IMMEDIATE")
        } catch {
            batch.forEach { $0.failure = error }
            return false
        }
        for job in batch {
            let hooks = connection.commitHooks.mark
            do {
                try connection.control("SAVEPOINT batch_member")
                try job.run(connection)
                try connection.control("RELEASE batch_member")
            } catch {
                job.failure = error
                connection.commitHooks.discard(from: hooks)
                guard connection.isInTransaction else {
                    connection.commitHooks.discard()
                    // SQLite rolled the whole transaction back (a full disk, say): the work
                    // of the closures before this one is gone too, and the rest cannot run.
                    batch.filter { $0.failure == nil }.forEach { $0.failure = error }
                    return false
                }
                try? connection.executeScript("ROLLBACK TO batch_member; RELEASE batch_member")
            }
        }
        do {
            try connection.control("COMMIT")
            connection.commitHooks.run()
            return true
        } catch {
            connection.commitHooks.discard()
            if connection.isInTransaction { try? connection.executeScript("ROLLBACK") }
            batch.filter { $0.failure == nil }.forEach { $0.failure = error }
            return false
        }
    }
}
