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
/// and a batch never waits for one that is not there yet. Each caller sleeps on a wake of
/// its own, which the leader signals once its batch is done (or it is to lead the next),
/// so a commit wakes the callers it finished and one more, not every thread that waits.
final class SQLiteGroupCommit: @unchecked Sendable {
    /// One caller's closure and, once its batch is done, what became of it.
    final class Job {
        let run: (any DatabaseConnection) throws -> Void
        var failure: (any Error)?
        var isDone = false
        var isLeader = false
        /// Signalled once: when the job's batch is done, or when the job is to lead a batch.
        let wake = DispatchSemaphore(value: 0)

        init(_ run: @escaping (any DatabaseConnection) throws -> Void) { self.run = run }
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
            let job = Job { connection in result = try body(connection) }
            try submit(job)
            // A job that did not fail has run, so its result is set.
            return result!
        }
    }

    private func submit(_ job: Job) throws {
        let leads = lock.withLock { () -> Bool in
            queue.append(job)
            if !hasLeader {
                hasLeader = true
                job.isLeader = true
            }
            return job.isLeader
        }
        if !leads { job.wake.wait() }
        if !lock.withLock({ job.isDone }) {
            // Signalled once the batch is let go: a woken caller returns at once, and its
            // closure must not outlive `write` in the leader's hands.
            for wake in lead(job) { wake.signal() }
        }
        if let failure = job.failure { throw failure }
    }

    /// Runs the next batch (the queue's first job is the leader's own, so it is in it) and
    /// returns the wakes to signal: its other callers', and the next leader's.
    private func lead(_ job: Job) -> [DispatchSemaphore] {
        let batch = lock.withLock { () -> [Job] in
            let batch = Array(queue.prefix(maxBatch))
            queue.removeFirst(batch.count)
            return batch
        }
        let committed = run(batch)
        return lock.withLock {
            if committed { commits += 1 }
            batch.forEach { $0.isDone = true }
            var wakes = batch.filter { $0 !== job }.map(\.wake)
            // Whoever waits first leads the next batch; the rest wait for it.
            if let next = queue.first {
                next.isLeader = true
                wakes.append(next.wake)
            } else {
                hasLeader = false
            }
            return wakes
        }
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
        do {
            try connection.executeScript("BEGIN IMMEDIATE")
        } catch {
            batch.forEach { $0.failure = error }
            return false
        }
        for job in batch {
            do {
                try connection.executeScript("SAVEPOINT batch_member")
                try job.run(connection)
                try connection.executeScript("RELEASE batch_member")
            } catch {
                job.failure = error
                guard connection.isInTransaction else {
                    // SQLite rolled the whole transaction back (a full disk, say): the work
                    // of the closures before this one is gone too, and the rest cannot run.
                    batch.filter { $0.failure == nil }.forEach { $0.failure = error }
                    return false
                }
                try? connection.executeScript("ROLLBACK TO batch_member; RELEASE batch_member")
            }
        }
        do {
            try connection.executeScript("COMMIT")
            return true
        } catch {
            if connection.isInTransaction { try? connection.executeScript("ROLLBACK") }
            batch.filter { $0.failure == nil }.forEach { $0.failure = error }
            return false
        }
    }
}
