import GatehouseDatabase
import Testing

/// Driver failures map to the same `DatabaseError.Kind` on every driver, and never leak
/// bound values.
@Suite struct DatabaseErrorTests {
    private func makeSchema(_ db: any Database) throws {
        try db.writeBlocking { conn in
            try conn.execute(conn.dialect.createTable(
                "account", "id {bigint} PRIMARY KEY", "token TEXT NOT NULL UNIQUE", "age {bigint} CHECK (age >= 0)"
            ), [])
            try conn.execute(conn.dialect.createTable(
                "session", "id {bigint} PRIMARY KEY", "account_id {bigint} NOT NULL REFERENCES account (id)"
            ), [])
            try conn.execute("INSERT INTO account (id, token, age) VALUES (?, ?, ?)", 1, "tok-one", 30)
        }
    }

    @Test(arguments: TestBackend.all)
    func duplicateKeyIsUniqueViolationWithSQLButNoValues(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeSchema(store.db)
        let secret = "s3cr3t-bearer-token-value"
        let sql = "INSERT INTO account (id, token, age) VALUES (?, ?, ?)"
        try store.db.writeBlocking { try $0.execute(sql, 2, secret, 1) }
        let error = databaseError { try store.db.writeBlocking { try $0.execute(sql, 3, secret, 1) } }
        #expect(error?.kind == .uniqueViolation)
        #expect(error?.sql == sql)
        #expect(error?.description.contains(sql) == true)
        #expect(error?.description.contains(secret) == false)
        #expect(error?.message.contains(secret) == false)
        // The primary key is a unique constraint too.
        #expect(databaseError { try store.db.writeBlocking { try $0.execute(sql, 1, "other", 1) } }?.kind == .uniqueViolation)
    }

    @Test(arguments: TestBackend.all)
    func missingParentIsForeignKeyViolation(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeSchema(store.db)
        let error = databaseError {
            try store.db.writeBlocking { try $0.execute("INSERT INTO session (id, account_id) VALUES (?, ?)", 1, 999) }
        }
        #expect(error?.kind == .foreignKeyViolation)
        let deleteParent = databaseError {
            try store.db.writeBlocking { conn in
                try conn.execute("INSERT INTO session (id, account_id) VALUES (?, ?)", 1, 1)
                try conn.execute("DELETE FROM account WHERE id = ?", 1)
            }
        }
        #expect(deleteParent?.kind == .foreignKeyViolation)
        let sessions = try store.db.readBlocking { try $0.query("SELECT id FROM session") }
        #expect(sessions.isEmpty)
    }

    @Test(arguments: TestBackend.all)
    func notNullAndCheckAreConstraintViolations(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeSchema(store.db)
        let notNull = databaseError {
            try store.db.writeBlocking { try $0.execute("INSERT INTO account (id, token) VALUES (?, ?)", 5, SQLValue.null) }
        }
        #expect(notNull?.kind == .constraintViolation)
        let check = databaseError {
            try store.db.writeBlocking { try $0.execute("INSERT INTO account (id, token, age) VALUES (?, ?, ?)", 5, "t5", -1) }
        }
        #expect(check?.kind == .constraintViolation)
    }

    @Test(arguments: TestBackend.all)
    func syntaxErrorsCarryTheStatement(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let error = databaseError { try store.db.readBlocking { try $0.query("SELEC nonsense", []) } }
        #expect(error?.kind == .other)
        #expect(error?.sql == "SELEC nonsense")
        // A failed statement leaves the pool usable.
        try store.db.ping()
    }

    @Test(arguments: TestBackend.all)
    func argumentCountMismatchIsRefused(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let error = databaseError { try store.db.readBlocking { try $0.query("SELECT ? AS a, ? AS b", [.integer(1)]) } }
        #expect(error?.message.contains("2") == true)
    }

    @Test(arguments: TestBackend.all)
    func severalStatementsOutsideAScriptAreRefused(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeSchema(store.db)
        let sql = "DELETE FROM account WHERE id = ?; DELETE FROM account"
        #expect(databaseError { try store.db.writeBlocking { try $0.execute(sql, 1) } }?.sql == sql)
        // A trailing comment is not a second statement.
        #expect(try store.db.readBlocking { try $0.query("SELECT id FROM account; -- done", []) }.count == 1)
        #expect(try store.db.readBlocking { try $0.query("SELECT id FROM account", []) }.count == 1)
    }

    @Test(arguments: TestBackend.postgresOnly)
    func postgresMessagesQuotingAValueAreRedacted(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let secret = "hunter2-secret-password"
        let error = databaseError { try store.db.readBlocking { try $0.query("SELECT CAST(? AS BIGINT) AS n", secret) } }
        #expect(error?.code == "22P02")
        #expect(error?.description.contains(secret) == false)
        #expect(error?.message.contains("<redacted>") == true)
    }

    @Test(arguments: TestBackend.postgresOnly)
    func swallowedErrorStillFailsTheCommit(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeSchema(store.db)
        let error = databaseError {
            try store.db.writeBlocking { conn in
                try conn.execute("INSERT INTO account (id, token) VALUES (?, ?)", 7, "t7")
                _ = try? conn.execute("INSERT INTO account (id, token) VALUES (?, ?)", 8, "t7")
            }
        }
        #expect(error?.code == "25P02")
        #expect(try store.db.readBlocking { try $0.query("SELECT id FROM account WHERE id = 7") }.isEmpty)
    }
}
