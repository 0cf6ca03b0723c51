import Foundation
import GatehouseDatabase
import GatehousePostgres
import Testing

/// Connections the server drops are replaced without the caller noticing when nothing was
/// in flight, and reported as `.connection` when a transaction was.
@Suite struct PostgresReconnectTests {
    private func backendPIDs(_ db: any Database, concurrently count: Int) async throws -> Set<Int64> {
        // Overlapping sleeps force `count` distinct pooled connections into use at once.
        try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await db.read { conn in
                        try conn.queryOne("SELECT pg_backend_pid() AS pid, pg_sleep(0.3) AS s")!.get("pid", as: Int64.self)
                    }
                }
            }
            return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
        }
    }

    /// Terminates the given backends from the admin connection and waits until they are gone
    /// (PostgreSQL's own wait: `pg_terminate_backend` with a timeout returns once the backend
    /// has exited), so the pool's next use finds a dead socket rather than racing the shutdown.
    private func terminate(_ pids: Set<Int64>, admin: TestStore.Admin) throws {
        for pid in pids {
            try admin.db.writeBlocking { _ = try $0.query("SELECT pg_terminate_backend(CAST(? AS INTEGER), 10000) AS ok", pid) }
        }
        let alive = try admin.db.readBlocking { conn in
            try conn.query("SELECT pid FROM pg_stat_activity WHERE application_name = ?", admin.applicationName)
                .map { try $0.get("pid", as: Int64.self) }
        }
        if !Set(alive).isDisjoint(with: pids) { Issue.record("terminated backends did not go away") }
    }

    @Test(arguments: TestBackend.postgresOnly)
    func terminatedIdleConnectionsAreReplacedTransparently(_ backend: TestBackend) async throws {
        let store = try backend.makeStore(poolSize: 4)
        defer { store.close() }
        let admin = try #require(store.admin)
        let db = store.db
        try db.writeBlocking { try $0.execute("CREATE TABLE hit (n BIGINT NOT NULL)", []) }
        let before = try await backendPIDs(db, concurrently: 4)
        #expect(before.count == 4)
        try terminate(before, admin: admin)

        // One at a time, then all four slots at once: every pooled connection is dead and
        // each must be swapped for a fresh one (a write's at BEGIN, a read's at its first
        // statement), with no error reaching the caller.
        for n in 1...4 {
            try db.writeBlocking { try $0.execute("INSERT INTO hit (n) VALUES (?)", n) }
        }
        let after = try await backendPIDs(db, concurrently: 4)
        #expect(after.count == 4)
        #expect(after.isDisjoint(with: before))
        let hits = try db.readBlocking { try $0.queryOne("SELECT COUNT(*) AS c FROM hit")!.get("c", as: Int.self) }
        #expect(hits == 4)
    }

    /// A read runs outside a transaction block, so it meets a dead connection at its first
    /// statement rather than at BEGIN: it too moves to a fresh one, and a read of several
    /// statements sees each statement's own snapshot, as it did in a READ COMMITTED transaction.
    @Test(arguments: TestBackend.postgresOnly)
    func readsOnTerminatedIdleConnectionsAreReplacedTransparently(_ backend: TestBackend) async throws {
        let store = try backend.makeStore(poolSize: 4)
        defer { store.close() }
        let admin = try #require(store.admin)
        let db = store.db
        let before = try await backendPIDs(db, concurrently: 4)
        try terminate(before, admin: admin)
        let after = try await backendPIDs(db, concurrently: 4)
        #expect(after.count == 4)
        #expect(after.isDisjoint(with: before))
        let (first, second) = try db.readBlocking { conn in
            (try conn.queryOne("SELECT pg_backend_pid() AS pid")!.get("pid", as: Int64.self),
             try conn.queryOne("SELECT pg_backend_pid() AS pid")!.get("pid", as: Int64.self))
        }
        #expect(first == second)
    }

    @Test(arguments: TestBackend.postgresOnly)
    func connectionLostMidTransactionIsReportedThenRecovered(_ backend: TestBackend) throws {
        let store = try backend.makeStore(poolSize: 2)
        defer { store.close() }
        let admin = try #require(store.admin)
        let db = store.db
        try db.writeBlocking { try $0.execute("CREATE TABLE hit (n BIGINT NOT NULL)", []) }
        let error = databaseError {
            try db.writeBlocking { conn in
                try conn.execute("INSERT INTO hit (n) VALUES (?)", 1)
                let pid = try conn.queryOne("SELECT pg_backend_pid() AS pid")!.get("pid", as: Int64.self)
                try terminate([pid], admin: admin)
                try conn.execute("INSERT INTO hit (n) VALUES (?)", 2)
            }
        }
        #expect(error?.kind == .connection)
        // Nothing from the broken transaction was committed, and the pool carries on.
        try db.writeBlocking { try $0.execute("INSERT INTO hit (n) VALUES (?)", 3) }
        let rows = try db.readBlocking { try $0.query("SELECT n FROM hit").map { try $0.get("n", as: Int.self) } }
        #expect(rows == [3])
    }

    @Test(arguments: TestBackend.postgresOnly)
    func statementsCachedBeforeASchemaChangeStillWork(_ backend: TestBackend) throws {
        let store = try backend.makeStore(poolSize: 1)
        defer { store.close() }
        let db = store.db
        try db.writeBlocking { conn in
            try conn.execute("CREATE TABLE wide (id BIGINT PRIMARY KEY)", [])
            try conn.execute("INSERT INTO wide (id) VALUES (?)", 1)
        }
        #expect(try db.readBlocking { try $0.queryOne("SELECT * FROM wide")?.columns } == ["id"])
        try db.writeBlocking { try $0.execute("ALTER TABLE wide ADD COLUMN label TEXT", []) }
        #expect(try db.readBlocking { try $0.queryOne("SELECT * FROM wide")?.columns } == ["id", "label"])
    }

    /// A connection that missed a schema change made on another drops its prepared
    /// statements inside its next transaction: sent before `BEGIN … READ WRITE`, the
    /// `DEALLOCATE` would take a snapshot and the read-only session could not turn writable.
    @Test(arguments: TestBackend.postgresOnly)
    func aConnectionThatMissedASchemaChangeStillWrites(_ backend: TestBackend) async throws {
        let store = try backend.makeStore(poolSize: 2)
        defer { store.close() }
        let db = store.db
        try db.writeBlocking { try $0.execute("CREATE TABLE wide (id BIGINT PRIMARY KEY)", []) }
        // Both connections prepare statements, then one of them changes the schema.
        #expect(try await backendPIDs(db, concurrently: 2).count == 2)
        try db.writeBlocking { try $0.execute("ALTER TABLE wide ADD COLUMN label TEXT", []) }
        // Two writes held open together: one of them is on the connection that missed it.
        let pids = try await withThrowingTaskGroup(of: Int64.self) { group in
            for id in 1...2 {
                group.addTask {
                    try await db.write { conn in
                        try conn.execute("INSERT INTO wide (id, label) VALUES (?, ?)", id, "row \(id)")
                        return try conn.queryOne("SELECT pg_backend_pid() AS pid, pg_sleep(0.3) AS s")!.get("pid", as: Int64.self)
                    }
                }
            }
            return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
        }
        #expect(pids.count == 2)
        #expect(try db.readBlocking { try $0.queryOne("SELECT COUNT(*) AS c FROM wide")!.get("c", as: Int.self) } == 2)
    }

    /// A write sent whole in one round trip (`BEGIN`, its statements, `COMMIT`) may have
    /// committed before its connection failed, so it is not run again on a fresh one: the
    /// error is reported. A write that waited on a statement before `COMMIT` left learns the
    /// connection is dead with nothing done, and moves.
    @Test(arguments: TestBackend.postgresOnly)
    func aWriteWhoseCommitLeftIsNotRunAgain(_ backend: TestBackend) async throws {
        let store = try backend.makeStore(poolSize: 1)
        defer { store.close() }
        let admin = try #require(store.admin)
        let db = store.db
        try db.writeBlocking { try $0.execute("CREATE TABLE hit (n BIGINT NOT NULL)", []) }
        try terminate(try await backendPIDs(db, concurrently: 1), admin: admin)
        var runs = 0
        let error = databaseError {
            try db.writeBlocking { conn in
                runs += 1
                try conn.send("INSERT INTO hit (n) VALUES (?)", 1)
            }
        }
        #expect(error?.kind == .connection)
        #expect(runs == 1)

        try terminate(try await backendPIDs(db, concurrently: 1), admin: admin)
        runs = 0
        try db.writeBlocking { conn in
            runs += 1
            try conn.execute("INSERT INTO hit (n) VALUES (?)", 2)
        }
        #expect(runs == 2)
        #expect(try db.readBlocking { try $0.query("SELECT n FROM hit").map { try $0.get("n", as: Int.self) } } == [2])
    }

    @Test(arguments: TestBackend.postgresOnly)
    func unreachableServerFailsWithConnectionKind(_ backend: TestBackend) throws {
        let error = databaseError { _ = try PostgresDatabase(url: "postgres://nobody@127.0.0.1:1/none?connect_timeout=2") }
        #expect(error?.kind == .connection)
    }
}
