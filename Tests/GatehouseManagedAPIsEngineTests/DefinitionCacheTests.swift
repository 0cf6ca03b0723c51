import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseWiring
import GatehouseTesting
import Testing
@testable import GatehouseManagedAPIsEngine

/// The proxy reads a definition from this node's cache: a hot API costs no query, and a save
/// or a removal is seen at once here and, by `LISTEN/NOTIFY`, on the other nodes.
@Suite struct DefinitionCacheTests {
    static func bearer(_ token: String) -> ManagedAPIDefinition {
        ManagedAPIsHarness.definition("crm", auth: .bearerToken(token: token))
    }

    static func authorization(_ plan: ProxyPlan) -> String? {
        plan.credentialHeaders.first { $0.name == "Authorization" }?.value
    }

    @Test(arguments: TestDatabaseKind.available)
    func aHotDefinitionCostsNoQueryAndAChangeHereIsSeenAtOnce(_ kind: TestDatabaseKind) async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let store = try await TestDatabase.migrated(kind, EngineMigrations.all, clock: clock)
        defer { store.close() }
        let counting = CountingDatabase(store.database)
        let environment = Environment.test(database: counting, clock: clock)
        let tenantID = try await TenantDirectory(environment: environment).createTenant(name: "Acme").id
        let engine = ManagedAPIsEngine(environment: environment, secrets: try SecretBox(key: ManagedAPIsHarness.key), destinations: RecordingGuard())
        try await engine.saveDefinition(tenantID: tenantID, Self.bearer("first"))

        func plan() async throws -> ProxyPlan { try await engine.plan(tenantID: tenantID, name: "crm", rawPath: "/x", query: []) }
        #expect(Self.authorization(try await plan()) == "Bearer first")
        let reads = counting.reads
        #expect(Self.authorization(try await plan()) == "Bearer first")
        #expect(counting.reads == reads)

        try await engine.saveDefinition(tenantID: tenantID, Self.bearer("second"))
        #expect(Self.authorization(try await plan()) == "Bearer second")
        try await engine.deleteDefinition(tenantID: tenantID, name: "crm")
        await #expect(throws: ManagedAPIError.self) { try await plan() }
    }

    /// The credential is opened once, when the definition is read into the cache, with the
    /// percent-encoded form the scrubber also looks for; one sealed under a key this node
    /// does not have is refused on every call, never sent sealed or empty.
    @Test(arguments: TestDatabaseKind.available)
    func aCachedDefinitionCarriesItsOpenedSecretAndAnUnopenableOneIsRefused(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        try await h.save(ManagedAPIsHarness.definition("crm", auth: .apiKey(placement: .query, name: "key", value: "s3cret/value+x")))
        for _ in 0..<2 {
            let plan = try await h.engine.plan(tenantID: h.tenantID, name: "crm", rawPath: "/x", query: [])
            #expect(plan.url.query == "key=s3cret%2Fvalue%2Bx")
            #expect(plan.echoedSecrets == ["s3cret/value+x", "s3cret%2Fvalue%2Bx"])
        }
        // Another node whose secret key differs (a data folder restored without its key file).
        let environment = Environment.test(database: h.store.database, clock: h.clock)
        let stranger = ManagedAPIsEngine(
            environment: environment, secrets: try SecretBox(key: [UInt8](repeating: 9, count: 32)), destinations: RecordingGuard())
        for _ in 0..<2 {
            await #expect(throws: ManagedAPIError.credentialUnavailable(.secretDoesNotOpen(definition: "crm"))) {
                try await stranger.plan(tenantID: h.tenantID, name: "crm", rawPath: "/x", query: [])
            }
        }
    }

    /// A change nobody announced (a row edited by hand) is seen once the entry's seconds are over.
    @Test(arguments: TestDatabaseKind.available)
    func anUnannouncedChangeIsSeenWhenTheEntryExpires(_ kind: TestDatabaseKind) async throws {
        let h = try await ManagedAPIsHarness(kind)
        defer { h.close() }
        try await h.save(ManagedAPIsHarness.definition("crm", base: "https://api.example.com/v2"))
        #expect(try await h.engine.plan(tenantID: h.tenantID, name: "crm", rawPath: "/x", query: []).url.host == "api.example.com")
        try await h.store.database.write { db in try db.execute("UPDATE managed_api_definitions SET base_url = 'https://moved.example.com'") }
        #expect(try await h.engine.plan(tenantID: h.tenantID, name: "crm", rawPath: "/x", query: []).url.host == "api.example.com")
        h.clock.advance(by: 5)
        #expect(try await h.engine.plan(tenantID: h.tenantID, name: "crm", rawPath: "/x", query: []).url.host == "moved.example.com")
    }

    /// Two nodes on one PostgreSQL: a secret replaced or a definition removed on one is
    /// seen on the other as soon as the notice arrives, long before the entry expires.
    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func changesReachTheOtherNode() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let nodes = try await TwoPostgresNodes.onFreshDatabase(migrations: EngineMigrations.all, clock: clock)
        let box = try SecretBox(key: ManagedAPIsHarness.key)
        let a = ManagedAPIsEngine(environment: nodes.environmentA, secrets: box, destinations: RecordingGuard())
        let b = ManagedAPIsEngine(environment: nodes.environmentB, secrets: box, destinations: RecordingGuard())
        let tenantID = try await TenantDirectory(environment: nodes.environmentA).createTenant(name: "Acme").id
        try await a.saveDefinition(tenantID: tenantID, Self.bearer("first"))
        await nodes.bInvalidations.waitForReceived(1)
        func planOnB() async throws -> ProxyPlan { try await b.plan(tenantID: tenantID, name: "crm", rawPath: "/x", query: []) }
        #expect(Self.authorization(try await planOnB()) == "Bearer first")

        try await a.saveDefinition(tenantID: tenantID, Self.bearer("second"))
        await nodes.bInvalidations.waitForReceived(2)
        #expect(Self.authorization(try await planOnB()) == "Bearer second")

        try await a.deleteDefinition(tenantID: tenantID, name: "crm")
        await nodes.bInvalidations.waitForReceived(3)
        await #expect(throws: ManagedAPIError.self) { try await planOnB() }
        await nodes.close()
    }
}
