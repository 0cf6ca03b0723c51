import Foundation
import GatehouseDatabase
import Testing

/// Transactions commit, roll back and isolate the same way on every driver.
@Suite struct DatabaseTransactionTests {
    private struct Abort: Error {}

    private func makeItems(_ db: any Database) throws {
        try db.writeBlocking { conn in
            try conn.execute(conn.dialect.createTable("item", "id {bigint} PRIMARY KEY", "name TEXT NOT NULL"), [])
        }
    }

    private func count(_ db: any Database) throws -> Int {
        try db.readBlocking { try $0.queryOne("SELECT COUNT(*) AS n FROM item")!.get("n") }
    }

    @Test(arguments: TestBackend.all)
    func throwingWriteRollsBackEverything(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        #expect(throws: Abort.self) {
            try store.db.writeBlocking { conn in
                try conn.execute("INSERT INTO item (id, name) VALUES (?, ?)", 1, "a")
                try conn.execute("INSERT INTO item (id, name) VALUES (?, ?)", 2, "b")
                throw Abort()
            }
        }
        #expect(try count(store.db) == 0)
        // The connection is clean afterwards: the next write commits normally.
        try store.db.writeBlocking { try $0.execute("INSERT INTO item (id, name) VALUES (?, ?)", 1, "a") }
        #expect(try count(store.db) == 1)
    }

    /// What a transaction asks to run after its commit runs once it has committed, and never
    /// for a transaction that rolled back, by its own throw or by a statement's error.
    @Test(arguments: TestBackend.all)
    func workAfterCommitRunsOnlyForACommittedTransaction(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        var ran: [String] = []
        #expect(throws: Abort.self) {
            try store.db.writeBlocking { conn in
                conn.afterCommit { ran.append("thrown") }
                try conn.execute("INSERT INTO item (id, name) VALUES (?, ?)", 1, "a")
                throw Abort()
            }
        }
        #expect(throws: DatabaseError.self) {
            try store.db.writeBlocking { conn in
                conn.afterCommit { ran.append("failed") }
                try conn.send("INSERT INTO item (id, name) VALUES (?, ?)", 1, "a")
                try conn.send("INSERT INTO item (id, name) VALUES (?, ?)", 1, "again")
            }
        }
        try store.db.writeBlocking { conn in
            conn.afterCommit { ran.append("committed: \((try? self.count(store.db)) ?? -1)") }
            try conn.execute("INSERT INTO item (id, name) VALUES (?, ?)", 2, "b")
        }
        // The one that committed ran once, after its row could be read by others.
        #expect(ran == ["committed: 1"])
    }

    @Test(arguments: TestBackend.all)
    func readersSeeCommitsButNotUncommittedWork(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        let db = store.db
        let seenInside = try db.writeBlocking { conn -> Int in
            try conn.execute("INSERT INTO item (id, name) VALUES (?, ?)", 1, "pending")
            return try count(db)
        }
        #expect(seenInside == 0)
        #expect(try count(db) == 1)
        // Another handle, as another process would have, sees the commit too.
        #expect(try count(store.openAnother()) == 1)
    }

    @Test(arguments: TestBackend.all)
    func readTransactionsCannotWrite(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        let error = databaseError {
            try store.db.readBlocking { try $0.execute("INSERT INTO item (id, name) VALUES (?, ?)", 1, "x") }
        }
        #expect(error?.sql == "INSERT INTO item (id, name) VALUES (?, ?)")
        #expect(try count(store.db) == 0)
    }

    @Test(arguments: TestBackend.all)
    func concurrentIncrementsUnderRowLockLoseNothing(_ backend: TestBackend) async throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let db = store.db
        try db.writeBlocking { conn in
            try conn.execute(conn.dialect.createTable("counter", "id {bigint} PRIMARY KEY", "n {bigint} NOT NULL"), [])
            try conn.execute("INSERT INTO counter (id, n) VALUES (1, 0)", [])
        }
        let (tasks, increments) = (8, 25)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<increments {
                        try await db.write { conn in
                            // Read-modify-write: only the row lock (or SQLite's single
                            // writer) keeps two tasks from writing the same n + 1.
                            let n = try conn.queryOne("SELECT n FROM counter WHERE id = 1" + conn.dialect.forUpdate)!
                                .get("n", as: Int64.self)
                            try conn.execute("UPDATE counter SET n = ? WHERE id = 1", n + 1)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let total = try await db.read { try $0.queryOne("SELECT n FROM counter WHERE id = 1")!.get("n", as: Int.self) }
        #expect(total == tasks * increments)
    }

    @Test(arguments: TestBackend.all)
    func closedDatabaseRefusesWork(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try store.db.ping()
        store.db.close()
        #expect(databaseError { try store.db.ping() }?.kind == .closed)
        #expect(databaseError { try store.db.writeBlocking { _ in } }?.kind == .closed)
    }

    @Test(arguments: TestBackend.all)
    func scriptsRunSeveralStatements(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        try store.db.writeBlocking { conn in
            try conn.executeScript("""
                INSERT INTO item (id, name) VALUES (1, 'one; still one');
                INSERT INTO item (id, name) VALUES (2, 'two');
                """)
        }
        let names = try store.db.readBlocking { try $0.query("SELECT name FROM item ORDER BY id").map { try $0.get("name", as: String.self) } }
        #expect(names == ["one; still one", "two"])
    }
}
