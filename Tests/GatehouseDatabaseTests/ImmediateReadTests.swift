import Foundation
import GatehouseDatabase
import GatehouseSQLite
import Testing

/// A SQLite read runs on the caller's thread when a reader is idle (no hop to the blocking
/// pool and back), and takes the pool when none is, never waiting on the calling thread.
@Suite struct ImmediateReadTests {
    @Test func anIdleReaderReadsOnTheCallingThread() throws {
        let db = try SQLiteDatabase.temporary(readers: 1)
        defer { db.close() }
        try db.writeBlocking { try $0.execute("CREATE TABLE t (v INTEGER)", []) }
        // The pool opens readers lazily: the first read opens it, on the pool.
        _ = try db.readBlocking { try $0.query("SELECT 1", []) }
        let caller = Thread.current
        let ranHere = try db.readIfImmediate { _ in Thread.current == caller }
        #expect(ranHere == true)
    }

    @Test func aReadWithEveryReaderLentOutIsNotImmediate() throws {
        let db = try SQLiteDatabase.temporary(readers: 1)
        defer { db.close() }
        _ = try db.readBlocking { try $0.query("SELECT 1", []) }
        let inner = try db.readBlocking { _ in try db.readIfImmediate { _ in 1 } }
        #expect(inner == nil)
    }

    @Test func aReadFallsBackToThePoolAndAnswersTheSame() async throws {
        let db = try SQLiteDatabase.temporary(readers: 1)
        defer { db.close() }
        try db.writeBlocking { try $0.execute("CREATE TABLE t (v INTEGER)", []); try $0.execute("INSERT INTO t VALUES (7)", []) }
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Hold the only reader on another thread; the async read then waits on the pool for it.
        let holder = Thread {
            _ = try? db.readBlocking { _ in
                held.signal()
                release.wait()
            }
        }
        holder.start()
        held.wait()
        #expect(try db.readIfImmediate { _ in 1 } == nil)
        async let value = db.read { try $0.queryOne("SELECT v FROM t", [])?.get("v", as: Int.self) }
        release.signal()
        #expect(try await value == 7)
        #expect(try await db.read { try $0.queryOne("SELECT v FROM t", [])?.get("v", as: Int.self) } == 7)
    }
}
