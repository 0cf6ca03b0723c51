import Foundation
import GatehouseDatabase
import GatehouseSQLite
import Testing

/// The WAL is copied back into the database file by a thread of its own, never by the
/// writer's commits, and so stays bounded while writes go on.
@Suite struct SQLiteCheckpointerTests {
    static let pageSize = 4096

    func walBytes(_ db: SQLiteDatabase) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: db.path + "-wal"))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Waits (up to a minute, on a loaded machine) for the thread's first pass.
    func waitForPass(_ db: SQLiteDatabase) {
        for _ in 0..<6_000 where db.checkpointPasses == 0 { Thread.sleep(forTimeInterval: 0.01) }
    }

    @Test func aGrowingWALIsCheckpointedOffTheWriterAndStaysBounded() throws {
        let db = try SQLiteDatabase.temporary(checkpointPages: 16)
        defer { db.close() }
        try db.writeBlocking { try $0.executeScript("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)") }
        let body = Data(repeating: 0xA5, count: 3 * Self.pageSize)
        // 600 commits of three pages and more each: some 2,000 pages, 16 of which wake the thread.
        for round in 0..<600 {
            try db.writeBlocking { try $0.execute("INSERT INTO blobs (id, body) VALUES (?, ?)", round, body) }
            if round % 100 == 99 { waitForPass(db) }
        }
        let passes = db.checkpointPasses
        #expect(passes > 0)
        // The WAL started over from its beginning (the writer copying the last pages once past
        // eight times the threshold): it never held all that was written, as it would have
        // with no checkpoint at all.
        #expect(walBytes(db) < 600 * body.count)
        #expect(try db.readBlocking { try $0.query("SELECT COUNT(*) AS n FROM blobs", []).first?.get("n") as Int? } == 600)
    }

    @Test func closingStopsTheThreadAndLeavesEveryCommitInTheFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let db = try SQLiteDatabase(path: path)
        try db.writeBlocking { try $0.executeScript("CREATE TABLE items (id INTEGER PRIMARY KEY)") }
        for id in 0..<50 { try db.writeBlocking { try $0.execute("INSERT INTO items (id) VALUES (?)", id) } }
        db.close()
        // The last connection to close folded the WAL in: the file alone holds every row.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let reopened = try SQLiteDatabase(path: path)
        defer { reopened.close() }
        #expect(try reopened.readBlocking { try $0.query("SELECT COUNT(*) AS n FROM items", []).first?.get("n") as Int? } == 50)
    }
}
