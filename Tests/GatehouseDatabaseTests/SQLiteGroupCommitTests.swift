import Foundation
import GatehouseDatabase
import GatehouseSQLite
import Testing

/// Writes that arrive while a transaction is open share the next COMMIT, each in a savepoint
/// of its own.
@Suite struct SQLiteGroupCommitTests {
    func database() throws -> SQLiteDatabase {
        let db = try SQLiteDatabase.temporary()
        try db.writeBlocking { try $0.executeScript("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)") }
        return db
    }

    /// Holds the writer in one transaction until `count` more writes are queued behind it.
    func holdWriter(_ db: SQLiteDatabase, untilQueued count: Int, started: DispatchSemaphore, release: DispatchSemaphore) -> Thread {
        let thread = Thread {
            try? db.writeBlocking { conn in
                try conn.execute("INSERT INTO items (name) VALUES (?)", "holder")
                started.signal()
                release.wait()
            }
        }
        thread.start()
        return thread
    }

    @Test func concurrentWritersShareCommits() async throws {
        let db = try database()
        defer { db.close() }
        let before = db.commitCount
        let (started, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        _ = holdWriter(db, untilQueued: 20, started: started, release: release)
        started.wait()
        // Twenty writers queue behind the open transaction, then it ends: they share one.
        let queued = DispatchGroup()
        let results = ResultBox()
        for index in 0..<20 {
            queued.enter()
            Thread {
                let id = try? db.writeBlocking { conn -> Int in
                    try conn.execute("INSERT INTO items (name) VALUES (?)", "w\(index)")
                    return index
                }
                results.add(id)
                queued.leave()
            }.start()
        }
        try await waitUntil { db.waitingWrites == 20 }
        release.signal()
        queued.wait()
        #expect(results.values.compactMap { $0 as? Int }.sorted() == Array(0..<20))
        #expect(db.commitCount - before == 2)
        #expect(try db.readBlocking { try $0.query("SELECT id FROM items", []).count } == 21)
    }

    @Test func aFailingClosureRollsBackAloneAndGetsItsOwnError() async throws {
        let db = try database()
        defer { db.close() }
        let (started, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        _ = holdWriter(db, untilQueued: 3, started: started, release: release)
        started.wait()
        let done = DispatchGroup()
        let outcomes = ResultBox()
        let committed = ResultBox()
        let writes: [(String, Bool)] = [("first", false), ("holder", false), ("broken", true), ("last", false)]
        for (name, throwsAfterInsert) in writes {
            done.enter()
            Thread {
                do {
                    try db.writeBlocking { conn in
                        conn.afterCommit { committed.add(name) }
                        try conn.execute("INSERT INTO items (name) VALUES (?)", name)
                        if throwsAfterInsert { throw Refused() }
                    }
                    outcomes.add("\(name): ok")
                } catch is Refused {
                    outcomes.add("\(name): refused")
                } catch let error as DatabaseError {
                    outcomes.add("\(name): \(error.kind)")
                } catch {
                    outcomes.add("\(name): \(error)")
                }
                done.leave()
            }.start()
        }
        try await waitUntil { db.waitingWrites == 4 }
        release.signal()
        done.wait()
        #expect(Set(outcomes.values.compactMap { $0 as? String }) == [
            "first: ok", "holder: \(DatabaseError.Kind.uniqueViolation)", "broken: refused", "last: ok",
        ])
        let names = try db.readBlocking { try $0.query("SELECT name FROM items ORDER BY name", []).map { try $0.get("name", as: String.self) } }
        #expect(names == ["first", "holder", "last"])
        // Only the members whose work committed run what they asked to run after the commit.
        #expect(committed.values.compactMap { $0 as? String }.sorted() == ["first", "last"])
    }

    @Test func asynchronousAndBlockedWritersShareCommitsAndEachGetsItsOwnAnswer() async throws {
        let db = try database()
        defer { db.close() }
        let before = db.commitCount
        let (started, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        _ = holdWriter(db, untilQueued: 12, started: started, release: release)
        started.wait()
        // Ten writes that hold no thread while they wait, and two blocked ones, behind the
        // open transaction; one of the asynchronous ones throws and alone is rolled back.
        let blocked = DispatchGroup()
        let blockedResults = ResultBox()
        for index in 0..<2 {
            blocked.enter()
            Thread {
                blockedResults.add(try? db.writeBlocking { try $0.execute("INSERT INTO items (name) VALUES (?)", "b\(index)") })
                blocked.leave()
            }.start()
        }
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<10 {
                group.addTask {
                    do {
                        return try await db.write { conn -> String in
                            try conn.execute("INSERT INTO items (name) VALUES (?)", "a\(index)")
                            if index == 3 { throw Refused() }
                            return "a\(index)"
                        }
                    } catch is Refused {
                        return "refused"
                    }
                }
            }
            try await waitUntil { db.waitingWrites == 12 }
            release.signal()
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        blocked.wait()
        #expect(answers.sorted() == (["refused"] + (0..<10).filter { $0 != 3 }.map { "a\($0)" }).sorted())
        #expect(blockedResults.values.compactMap { $0 as? Int } == [1, 1])
        // The holder's transaction, then one for the twelve that queued behind it.
        #expect(db.commitCount - before == 2)
        let names = try db.readBlocking { try $0.query("SELECT name FROM items", []).map { try $0.get("name", as: String.self) } }
        #expect(names.count == 12 && !names.contains("a3"))
    }

    @Test func whatCommittedSurvivesReopening() throws {
        let db = try SQLiteDatabase.temporary()
        try db.writeBlocking { try $0.executeScript("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)") }
        let group = DispatchGroup()
        for index in 0..<50 {
            group.enter()
            DispatchQueue.global().async {
                _ = try? db.writeBlocking { try $0.execute("INSERT INTO items (name) VALUES (?)", "n\(index)") }
                group.leave()
            }
        }
        group.wait()
        let reopened = try SQLiteDatabase(path: db.path)
        #expect(try reopened.readBlocking { try $0.query("SELECT id FROM items", []).count } == 50)
        reopened.close()
        db.close()
    }

    /// Waits for a condition another thread makes true, yielding between looks.
    func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<100_000 where !condition() { await Task.yield() }
        #expect(condition())
    }
}

struct Refused: Error {}

final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Any?] = []
    func add(_ value: Any?) { lock.withLock { stored.append(value) } }
    var values: [Any?] { lock.withLock { stored } }
}
