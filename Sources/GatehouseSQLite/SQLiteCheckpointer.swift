import CSQLite
import Foundation

// Safe: `passRequested`, `stopping`, `started`, `passes` and `connection` are only read and written under `lock`; `wake` and `finished` are semaphores;
// `path`, `busyTimeout`, `pages` and `writerPages` are immutable `let`s.
/// Copies the WAL back into the database file on a thread of its own, so that the writer
/// never does it inside a commit.
///
/// SQLite's automatic checkpoint runs in the connection that commits, once the WAL holds
/// 1,000 pages: that commit, and every write waiting behind it on the one writer, waits for
/// the pages to be copied and the file to be flushed, which is where a busy writer's slowest
/// commits came from. Here the writer's WAL hook only wakes this thread, which runs a
/// PASSIVE checkpoint on a connection of its own: it takes neither the write lock nor
/// readers' locks, and the writer goes on appending while it copies.
///
/// The WAL can only start over from its beginning once all of it was copied, which a pass
/// running beside a busy writer never achieves: the writer does that itself once the WAL
/// holds `writerPages`, after a commit, as SQLite would have done at its own threshold. By
/// then the passes have copied all but the last few pages, so the writer's checkpoint is
/// short, and it comes a thirty-second as often as SQLite's (measured with the start rows of
/// `make bench`: a writer that copied the rest after every pass kept most of the old p99).
/// A reader holding an old snapshot keeps its pages in the WAL either way.
/// See https://www.sqlite.org/wal.html#automatic_checkpoint and
/// https://www.sqlite.org/c3ref/wal_checkpoint_v2.html.
final class SQLiteCheckpointer: @unchecked Sendable {
    /// WAL pages (of 4 KiB) that wake the checkpointing thread: SQLite's own threshold is
    /// 1,000, but a page written again before a pass is copied once, and the copying is off
    /// the writer's path (4,000 measured better than 1,000 with the start rows of `make bench`).
    static let defaultPages = 4_000
    /// WAL pages that wake the checkpointing thread.
    let pages: Int
    /// WAL pages past which the writer checkpoints in its own commit.
    let writerPages: Int
    private let path: String
    private let busyTimeout: Int
    private let lock = NSLock()
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var started = false
    private var passRequested = false
    private var stopping = false
    private var passes = 0
    private var connection: SQLiteConnection?

    private enum Step { case nothing, wakeThread, checkpointHere }

    init(path: String, busyTimeout: Int, pages: Int = defaultPages) {
        self.path = path
        self.busyTimeout = busyTimeout
        self.pages = pages
        writerPages = pages * 8
    }

    /// Checkpoint passes this thread has run.
    var checkpointPasses: Int { lock.withLock { passes } }

    /// Replaces `writer`'s automatic checkpoint with a wake-up of this thread. The
    /// checkpointer must outlive the connection: the database keeps both and closes the
    /// connection first.
    func watch(_ writer: SQLiteConnection) {
        writer.setWALHook(Self.walHook, context: Unmanaged.passUnretained(self).toOpaque())
    }

    /// Opens this thread's connection (after the writer made the file WAL) and starts it.
    func start() throws {
        let connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout, isWriter: true)
        lock.withLock {
            self.connection = connection
            started = true
        }
        let thread = Thread { [self] in run() }
        thread.name = "gatehouse.sqlite-checkpoint"
        thread.start()
    }

    /// Ends the thread after the pass it may be in, and waits until its connection is closed.
    func stop() {
        let running = lock.withLock { () -> Bool in
            defer { stopping = true }
            return started && !stopping
        }
        guard running else { return }
        wake.signal()
        finished.wait()
    }

    private static let walHook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
        context, db, _, pages in
        guard let context, let db else { return SQLITE_OK }
        Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue().walGrew(to: Int(pages), writer: db)
        return SQLITE_OK
    }

    /// Called by the writer after each commit, with the WAL's size in pages.
    private func walGrew(to walPages: Int, writer: OpaquePointer) {
        let step = lock.withLock { () -> Step in
            if walPages >= writerPages { return .checkpointHere }
            guard walPages >= pages, !passRequested else { return .nothing }
            passRequested = true
            return .wakeThread
        }
        switch step {
        case .nothing: break
        case .wakeThread: wake.signal()
        // Refused at once while this thread's pass runs; tried again after the next commit.
        case .checkpointHere: _ = sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }
    }

    private func run() {
        while true {
            wake.wait()
            let connection = lock.withLock { () -> SQLiteConnection? in
                return stopping ? nil : self.connection
            }
            guard let connection else { break }
            // PASSIVE never waits: what readers still need stays in the WAL for the next pass.
            connection.checkpointPassively()
            lock.withLock {
                passes += 1
                passRequested = false
            }
        }
        lock.withLock {
            connection?.close()
            connection = nil
        }
        finished.signal()
    }
}
