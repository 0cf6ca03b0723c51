import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehousePostgres
import GatehouseTesting
import Testing

@Suite struct KeyCacheTests {
    let clock = ManualClock()

    @Test(arguments: TestDatabaseKind.available)
    func aHotKeyCostsNoQueryAndARevocationHereIsSeenAtOnce(_ kind: TestDatabaseKind) async throws {
        let store = try await TestDatabase.migrated(kind, CoreMigrations.all, clock: clock)
        defer { store.close() }
        let counting = CountingDatabase(store.database)
        let directory = TenantDirectory(environment: .test(database: counting, clock: clock))
        let tenant = try await directory.createTenant(name: "Acme")
        let issued = try await directory.issueKey(tenantID: tenant.id, label: "k")
        #expect(try await directory.authenticate(apiKey: issued.secret) == issued.key)
        let reads = counting.reads
        #expect(try await directory.authenticate(apiKey: issued.secret) == issued.key)
        #expect(counting.reads == reads)
        // The secret is checked every time, cached or not.
        #expect(try await directory.authenticate(apiKey: issued.secret + "x") == nil)
        try await directory.revokeKey(tenantID: tenant.id, keyID: issued.key.id)
        #expect(try await directory.authenticate(apiKey: issued.secret) == nil)
    }

    /// A change made behind the cache's back (another process on the same SQLite file) is
    /// seen once the entry's few seconds are over.
    @Test(arguments: TestDatabaseKind.available)
    func aChangeNobodyAnnouncedIsSeenWhenTheEntryExpires(_ kind: TestDatabaseKind) async throws {
        let store = try await TestDatabase.migrated(kind, CoreMigrations.all, clock: clock)
        defer { store.close() }
        let directory = TenantDirectory(environment: .test(database: store.database, clock: clock))
        let tenant = try await directory.createTenant(name: "Acme")
        let issued = try await directory.issueKey(tenantID: tenant.id, label: "k")
        #expect(try await directory.authenticate(apiKey: issued.secret) != nil)
        let now = clock.now
        try await store.database.write { db in try db.execute("UPDATE api_keys SET revoked_at = ?", now) }
        #expect(try await directory.authenticate(apiKey: issued.secret) != nil)
        clock.advance(by: 5)
        #expect(try await directory.authenticate(apiKey: issued.secret) == nil)
    }

    /// Two nodes on one PostgreSQL: a key revoked or a tenant disabled on one stops working
    /// on the other as soon as the notice arrives, long before the cache entry expires.
    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func revocationsReachTheOtherNode() async throws {
        let store = try await TestDatabase.migrated(.postgres, CoreMigrations.all, clock: clock)
        defer { store.close() }
        let nodes = try TwoPostgresNodes(store: store, clock: clock)
        await nodes.listening()
        let node = (a: TenantDirectory(environment: nodes.environmentA), b: TenantDirectory(environment: nodes.environmentB))

        let tenant = try await node.a.createTenant(name: "Acme")
        let first = try await node.a.issueKey(tenantID: tenant.id, label: "one")
        let second = try await node.a.issueKey(tenantID: tenant.id, label: "two")
        #expect(try await node.b.authenticate(apiKey: first.secret) != nil)
        #expect(try await node.b.authenticate(apiKey: second.secret) != nil)

        try await node.a.revokeKey(tenantID: tenant.id, keyID: first.key.id)
        await nodes.bInvalidations.waitForReceived(1)
        #expect(try await node.b.authenticate(apiKey: first.secret) == nil)
        #expect(try await node.b.authenticate(apiKey: second.secret) != nil)

        try await node.a.disableTenant(id: tenant.id)
        await nodes.bInvalidations.waitForReceived(2)
        #expect(try await node.b.authenticate(apiKey: second.secret) == nil)
        await nodes.close()
    }
}

