import GatehouseDatabase
import Testing

/// What each database can do, said by its dialect: every statement a dialect offers runs in a
/// write transaction of that database, and what one cannot do is `nil`, never a branch on its name.
@Suite struct SQLDialectTests {
    @Test(arguments: TestBackend.all)
    func everyStatementADialectOffersRuns(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try store.db.writeBlocking { db in
            let dialect = db.dialect
            if let lock = dialect.transactionLock { _ = try db.query(lock, [.integer(42)]) }
            if let lock = dialect.transactionLockByName { _ = try db.query(lock, [.text("tests:dialect")]) }
            if let notify = dialect.notify { _ = try db.query(notify, [.text("gh_dialect_test"), .text("payload")]) }
            try db.execute(dialect.createTable("flags", "id {bigint} PRIMARY KEY", "on_ {boolean} NOT NULL DEFAULT \(dialect.trueLiteral)"), [])
            try db.execute("INSERT INTO flags (id) VALUES (1)", [])
            let on: Bool = try db.queryOne("SELECT on_ FROM flags WHERE id = 1", [])!.get("on_")
            #expect(on)
        }
    }

    @Test func sqliteIsOneNodeAndPostgreSQLIsShared() {
        #expect(!SQLDialect.sqlite.sharedByNodes && SQLDialect.sqlite.notify == nil && SQLDialect.sqlite.transactionLock == nil)
        #expect(SQLDialect.postgres.sharedByNodes && SQLDialect.postgres.notify != nil && SQLDialect.postgres.transactionLock != nil)
    }
}
