import CSQLite
import Foundation
import GatehouseDatabase

// Safe: `queue`, `hasLeader`, `commits` and each Job's `isDone` and `isLeader` are only touched under `condition`; a Job's
// `failure` (and the result its closure sets) is written by the leader's thread and read by the job's own caller only
// after it has seen `isDone` under `condition`; `writer` and `maxBatch` are immutable `let`s.
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
/// and a batch never waits for one that is not there yet.
final class SQLiteGroupCommit: @unchecked Sendable {
    /// One caller's closure and, once its batch is done, what became of it.
    final class Job {
        let run: (any DatabaseConnection) throws -> Void
        var failure: (any Error)?
        var isDone = false
        var isLeader = false

        init(_ run: @escaping (any DatabaseConnection) throws -> Void) { self.run = run }
    }

    /// The most closures one transaction takes, so a flood cannot build one huge transaction.
    let maxBatch: Int
    private let writer: ConnectionPool<SQLiteConnection>
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queue: [Job] = []
    private var hasLeader = false
    private var commits = 0

    init(writer: ConnectionPool<SQLiteConnection>, maxBatch: Int = 128) {
        self.writer = writer
        self.maxBatch = maxBatch
    }

    /// COMMITs that succeeded so far.
    var commitCount: Int { condition.withLock { commits } }
    /// Writes waiting for the next transaction.
    var waitingCount: Int { condition.withLock { queue.count } }

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
        condition.lock()
        queue.append(job)
        if !hasLeader {
            hasLeader = true
            job.isLeader = true
        }
        while !job.isDone && !job.isLeader { condition.wait() }
        if !job.isDone {
            let batch = Array(queue.prefix(maxBatch))
            queue.removeFirst(batch.count)
            condition.unlock()
            let committed = run(batch)
            condition.lock()
            if committed { commits += 1 }
            batch.forEach { $0.isDone = true }
            // Whoever waits first leads the next batch; the rest wait for it.
            if let next = queue.first { next.isLeader = true } else { hasLeader = false }
            condition.broadcast()
        }
        condition.unlock()
        if let failure = job.failure { throw failure }
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
