import Foundation
import GatehouseDatabase
import GatehousePostgres
import Testing

/// Statements sent without waiting (`send`) run in order, answer when asked, fail their
/// transaction when they fail, and on PostgreSQL share a round trip with the next statement
/// that waits.
@Suite struct SentStatementTests {
    private func makeItems(_ db: any Database) throws {
        try db.writeBlocking { conn in
            try conn.execute(conn.dialect.createTable("item", "id {bigint} PRIMARY KEY", "name TEXT NOT NULL"), [])
        }
    }

    private func names(_ db: any Database) throws -> [String] {
        try db.readBlocking { try $0.query("SELECT name FROM item ORDER BY id", []).map { try $0.get("name") } }
    }

    @Test(arguments: TestBackend.all)
    func sentStatementsRunInOrderAndAnswerWhenAsked(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        let (changes, seen, renamed) = try store.db.writeBlocking { conn in
            let inserts = try (1...3).map { try conn.send("INSERT INTO item (id, name) VALUES (?, ?)", $0, "n\($0)") }
            let rename = try conn.send("UPDATE item SET name = ? WHERE id <= ?", "renamed", 2)
            // A statement that waits sees every sent one before it.
            let seen: [String] = try conn.query("SELECT name FROM item ORDER BY id", []).map { try $0.get("name") }
            return (try inserts.map { try $0.changes() }, seen, try rename.changes())
        }
        #expect(changes == [1, 1, 1])
        #expect(renamed == 2)
        #expect(seen == ["renamed", "renamed", "n3"])
        #expect(try names(store.db) == ["renamed", "renamed", "n3"])
    }

    @Test(arguments: TestBackend.all)
    func aSentSelectHandsOverItsRows(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        try store.db.writeBlocking { try $0.execute("INSERT INTO item (id, name) VALUES (?, ?)", 1, "a") }
        let (first, second) = try store.db.readBlocking { conn in
            let first = try conn.send("SELECT name FROM item WHERE id = ?", 1)
            let second = try conn.send("SELECT name FROM item WHERE id = ?", 2)
            return (try first.rows().map { try $0.get("name", as: String.self) }, try second.rows().count)
        }
        #expect(first == ["a"])
        #expect(second == 0)
    }

    @Test(arguments: TestBackend.all)
    func aFailingSentStatementFailsTheTransactionAndLeavesNothing(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        try store.db.writeBlocking { try $0.execute("INSERT INTO item (id, name) VALUES (?, ?)", 1, "kept") }
        let error = databaseError {
            try store.db.writeBlocking { conn in
                try conn.send("INSERT INTO item (id, name) VALUES (?, ?)", 2, "lost")
                try conn.send("INSERT INTO item (id, name) VALUES (?, ?)", 1, "duplicate")
                try conn.send("INSERT INTO item (id, name) VALUES (?, ?)", 3, "lost too")
                _ = try conn.query("SELECT COUNT(*) AS n FROM item", [])
            }
        }
        #expect(error?.kind == .uniqueViolation)
        #expect(try names(store.db) == ["kept"])
        // The connection is clean afterwards, on every driver.
        try store.db.writeBlocking { try $0.execute("INSERT INTO item (id, name) VALUES (?, ?)", 2, "next") }
        #expect(try names(store.db) == ["kept", "next"])
    }

    @Test(arguments: TestBackend.all)
    func whatAWriteSendsLastGoesWithItsCommit(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        try store.db.writeBlocking { try $0.send("INSERT INTO item (id, name) VALUES (?, ?)", 1, "committed") }
        #expect(try names(store.db) == ["committed"])
        // Its failure fails the commit.
        let error = databaseError {
            try store.db.writeBlocking { try $0.send("INSERT INTO item (id, name) VALUES (?, ?)", 1, "again") }
        }
        #expect(error?.kind == .uniqueViolation)
    }

    @Test(arguments: TestBackend.all)
    func aReadThrowsTheErrorOfWhatItSentAndNeverAskedFor(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        let error = databaseError {
            try store.db.readBlocking { conn in
                try conn.send("SELECT name FROM no_such_table", [])
            }
        }
        #expect(error != nil)
        // The pool carries on: the next read is not handed the failed conversation's leftovers.
        #expect(try names(store.db) == [])
    }

    @Test(arguments: TestBackend.all)
    func aThrowingBodyRollsBackWhatItSent(_ backend: TestBackend) throws {
        struct Abort: Error {}
        let store = try backend.makeStore()
        defer { store.close() }
        try makeItems(store.db)
        #expect(throws: Abort.self) {
            try store.db.writeBlocking { conn in
                try conn.send("INSERT INTO item (id, name) VALUES (?, ?)", 1, "sent")
                throw Abort()
            }
        }
        #expect(try names(store.db) == [])
        try store.db.writeBlocking { try $0.execute("INSERT INTO item (id, name) VALUES (?, ?)", 1, "after") }
        #expect(try names(store.db) == ["after"])
    }

    @Test(arguments: TestBackend.postgresOnly)
    func onPostgreSQLSentStatementsShareTheRoundTripOfTheNextThatWaits(_ backend: TestBackend) throws {
        let store = try backend.makeStore(poolSize: 1)
        defer { store.close() }
        try makeItems(store.db)
        let db = try #require(store.db as? PostgresDatabase)
        // Warm: the statements are prepared once per connection, in the same round trips.
        let write = {
            try db.writeBlocking { conn in
                for id in 1...3 { try conn.send("INSERT INTO item (id, name) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", id, "x") }
                _ = try conn.query("SELECT COUNT(*) AS n FROM item", [])
                try conn.send("UPDATE item SET name = ? WHERE id = ?", "y", 1)
            }
        }
        try write()
        let beforeWrite = db.roundTrips
        try write()
        // BEGIN, three inserts and the count in one; the update with COMMIT in the other.
        #expect(db.roundTrips - beforeWrite == 2)
        let beforeRead = db.roundTrips
        _ = try db.readBlocking { conn in
            let first = try conn.send("SELECT name FROM item WHERE id = ?", 1)
            let rest = try conn.query("SELECT name FROM item WHERE id > ?", [.integer(1)])
            return (try first.rows(), rest)
        }
        #expect(db.roundTrips - beforeRead == 1)
    }

    @Test(arguments: TestBackend.postgresOnly)
    func aPreparationSkippedAfterAnErrorIsPreparedAgain(_ backend: TestBackend) throws {
        let store = try backend.makeStore(poolSize: 1)
        defer { store.close() }
        try makeItems(store.db)
        let fresh = "SELECT COUNT(*) AS n FROM item WHERE name <> ?"
        // The fresh statement's preparation follows a failing statement in one pipeline, so the
        // server skips it; the next use must prepare it again rather than name a statement the
        // server never made.
        #expect(databaseError {
            try store.db.writeBlocking { conn in
                try conn.send("SELECT * FROM no_such_table", [])
                _ = try conn.query(fresh, [.text("x")])
            }
        } != nil)
        let count: Int = try store.db.readBlocking { try $0.queryOne(fresh, [.text("x")])!.get("n") }
        #expect(count == 0)
    }
}
