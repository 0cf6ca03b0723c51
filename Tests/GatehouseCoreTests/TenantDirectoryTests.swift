import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing

@Suite struct TenantDirectoryTests {
    /// A migrated test database with a directory over it.
    static func directory(_ kind: TestDatabaseKind, clock: ManualClock = ManualClock()) async throws -> (TenantDirectory, TestDatabase) {
        let store = try await TestDatabase.migrated(kind, CoreMigrations.all, clock: clock)
        return (TenantDirectory(environment: .test(database: store.database, clock: clock)), store)
    }

    @Test(arguments: TestDatabaseKind.available)
    func tenantsApplicationsAndKeys(_ kind: TestDatabaseKind) async throws {
        let clock = ManualClock()
        let (directory, store) = try await Self.directory(kind, clock: clock)
        defer { store.close() }
        #expect(try await directory.isEmpty())
        let tenant = try await directory.createTenant(name: "  Acme  ")
        #expect(tenant.name == "Acme")
        #expect(tenant.createdAt == clock.now)
        #expect(try await directory.tenant(id: tenant.id) == tenant)
        let app = try await directory.createApplication(tenantID: tenant.id, name: "iOS")
        let issued = try await directory.issueKey(tenantID: tenant.id, applicationID: app.id, label: "prod")
        #expect(issued.secret.hasPrefix("ghk_"))
        #expect(try await directory.authenticate(apiKey: issued.secret) == issued.key)
        #expect(try await directory.keys(tenantID: tenant.id) == [issued.key])
        #expect(try await directory.applications(tenantID: tenant.id) == [app])

        // The stored row holds a hash, never the secret.
        let stored = try await store.database.read { db in try db.query("SELECT * FROM api_keys", []) }
        let secretPart = String(issued.secret.split(separator: ".")[1])
        for value in stored[0].values {
            if case .text(let text) = value { #expect(!text.contains(secretPart)) }
            if case .blob(let bytes) = value { #expect(!String(decoding: bytes, as: UTF8.self).contains(secretPart)) }
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func forgedRevokedAndDisabledKeysDoNotAuthenticate(_ kind: TestDatabaseKind) async throws {
        let (directory, store) = try await Self.directory(kind)
        defer { store.close() }
        let tenant = try await directory.createTenant(name: "Acme")
        let issued = try await directory.issueKey(tenantID: tenant.id, label: "k")
        var forged = issued.secret
        forged.removeLast()
        forged += issued.secret.last == "A" ? "B" : "A"
        #expect(try await directory.authenticate(apiKey: forged) == nil)
        for garbage in ["", "ghk_", "ghk_zz.abc", "gha_" + issued.secret.dropFirst(4), String(repeating: "a", count: 500)] {
            #expect(try await directory.authenticate(apiKey: garbage) == nil)
        }
        try await directory.revokeKey(tenantID: tenant.id, keyID: issued.key.id)
        #expect(try await directory.authenticate(apiKey: issued.secret) == nil)
        #expect(try await directory.keys(tenantID: tenant.id).first?.revokedAt != nil)

        let second = try await directory.issueKey(tenantID: tenant.id, label: "k2")
        try await directory.disableTenant(id: tenant.id)
        #expect(try await directory.authenticate(apiKey: second.secret) == nil)
    }

    @Test(arguments: TestDatabaseKind.available)
    func tenantsNeverSeeEachOthersKeys(_ kind: TestDatabaseKind) async throws {
        let (directory, store) = try await Self.directory(kind)
        defer { store.close() }
        let acme = try await directory.createTenant(name: "Acme")
        let globex = try await directory.createTenant(name: "Globex")
        let acmeKey = try await directory.issueKey(tenantID: acme.id, label: "k")
        let globexApp = try await directory.createApplication(tenantID: globex.id, name: "app")
        await #expect(throws: CoreError.notFound(.key)) {
            try await directory.revokeKey(tenantID: globex.id, keyID: acmeKey.key.id)
        }
        await #expect(throws: CoreError.notFound(.application)) {
            try await directory.issueKey(tenantID: acme.id, applicationID: globexApp.id, label: "x")
        }
        #expect(try await directory.keys(tenantID: globex.id).isEmpty)
        #expect(try await directory.authenticate(apiKey: acmeKey.secret)?.tenantId == acme.id)
        await #expect(throws: CoreError.notFound(.tenant)) { try await directory.keys(tenantID: "nope") }
    }

    @Test(arguments: TestDatabaseKind.available)
    func namesAreValidated(_ kind: TestDatabaseKind) async throws {
        let (directory, store) = try await Self.directory(kind)
        defer { store.close() }
        for bad in ["", "   ", String(repeating: "x", count: 201), "tab\there"] {
            await #expect(throws: CoreError.self) { try await directory.createTenant(name: bad) }
        }
        #expect(try await directory.tenants().isEmpty)
    }

    @Test(arguments: TestDatabaseKind.available)
    func adminTokens(_ kind: TestDatabaseKind) async throws {
        let (directory, store) = try await Self.directory(kind)
        defer { store.close() }
        let token = try await directory.issueAdminToken(label: "ops")
        #expect(token.hasPrefix("gha_"))
        #expect(try await directory.verifyAdminToken(token))
        #expect(try await !directory.verifyAdminToken(token + "x"))
        #expect(try await !directory.verifyAdminToken("ghk_" + token.dropFirst(4)))
    }
}
