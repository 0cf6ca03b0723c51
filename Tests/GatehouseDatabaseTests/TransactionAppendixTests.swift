import Foundation
import GatehouseDatabase
import Testing

/// An appendix joins the first write of its scope that commits, and no other.
@Suite struct TransactionAppendixTests {
    private struct Abort: Error {}

    private func prepare(_ db: any Database) async throws {
        try await db.write { conn in
            try conn.execute(conn.dialect.createTable("change", "id {bigint} PRIMARY KEY"), [])
            try conn.execute(conn.dialect.createTable("record", "id {bigint} PRIMARY KEY"), [])
        }
    }

    private func counts(_ db: any Database) async throws -> [Int] {
        try await db.read { conn in
            [try conn.queryOne("SELECT COUNT(*) AS n FROM change")!.get("n"), try conn.queryOne("SELECT COUNT(*) AS n FROM record")!.get("n")]
        }
    }

    private func appendix() -> TransactionAppendix {
        TransactionAppendix { conn in try conn.execute("INSERT INTO record (id) VALUES (?)", 1) }
    }

    @Test(arguments: TestBackend.all)
    func itRidesTheFirstCommittedWriteOnly(_ backend: TestBackend) async throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let db = AppendingDatabase(store.db)
        try await prepare(db)
        let record = appendix()
        try await TransactionAppendix.$current.withValue(record) {
            // Rolled back: the record goes with it and waits for the next write.
            await #expect(throws: Abort.self) {
                try await db.write { conn in
                    try conn.execute("INSERT INTO change (id) VALUES (?)", 1)
                    throw Abort()
                }
            }
            #expect(!record.isWritten)
            try await db.write { conn in try conn.execute("INSERT INTO change (id) VALUES (?)", 2) }
            try db.writeBlocking { conn in try conn.execute("INSERT INTO change (id) VALUES (?)", 3) }
        }
        #expect(record.isWritten)
        // Outside any scope, and in a scope whose only write fails, nothing is appended.
        try await db.write { conn in try conn.execute("INSERT INTO change (id) VALUES (?)", 4) }
        try await TransactionAppendix.$current.withValue(appendix()) {
            #expect(throws: Abort.self) { try db.writeBlocking { _ in throw Abort() } }
        }
        #expect(try await counts(db) == [3, 1])
    }

    /// The appendix fails, so does the change: they commit together or not at all.
    @Test(arguments: TestBackend.all)
    func aFailingAppendixTakesTheChangeWithIt(_ backend: TestBackend) async throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let db = AppendingDatabase(store.db)
        try await prepare(db)
        try await db.write { conn in try conn.execute("INSERT INTO record (id) VALUES (?)", 1) }
        await #expect(throws: (any Error).self) {
            try await TransactionAppendix.$current.withValue(appendix()) {
                try await db.write { conn in try conn.execute("INSERT INTO change (id) VALUES (?)", 1) }
            }
        }
        #expect(try await counts(db) == [0, 1])
    }
}
