import Foundation
import GatehouseCrypto
import GatehouseDatabase

/// Tenants, their applications and API keys, and the operator's admin tokens.
public final class TenantDirectory: Sendable {
    public static let keyPrefix = "ghk"
    public static let adminPrefix = "gha"
    /// The name API-key lookups are cached under (see ``CacheInvalidations``).
    public static let keyCacheName = "api-keys"
    let environment: Environment
    /// Key rows by key id, so a request's key check is no query while the key is hot.
    let keyCache: NodeCache<CachedKey>

    public init(environment: Environment) {
        self.environment = environment
        keyCache = NodeCache(name: Self.keyCacheName, clock: environment.clock)
        environment.invalidations.register(keyCache)
    }

    var database: any Database { environment.database }

    public func createTenant(name: String) async throws -> Tenant {
        let name = try Self.validName(name, field: "name")
        let id = environment.ids.next().lowercased
        let now = environment.clock.now
        return try await database.write { db in
            try db.execute("INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)", id, name, now)
            return try Tenant(row: try db.queryOne("SELECT * FROM tenants WHERE id = ?", id)!)
        }
    }

    public func tenants() async throws -> [Tenant] {
        try await database.read { db in
            try db.query("SELECT * FROM tenants ORDER BY created_at, id").map(Tenant.init(row:))
        }
    }

    public func tenant(id: String) async throws -> Tenant {
        let found = try await database.read { db in
            try db.queryOne("SELECT * FROM tenants WHERE id = ?", id).map(Tenant.init(row:))
        }
        guard let found else { throw CoreError.notFound(.tenant) }
        return found
    }

    /// Disables a tenant: its keys stop authenticating; nothing is deleted.
    public func disableTenant(id: String) async throws {
        let now = environment.clock.now
        let invalidations = environment.invalidations
        // A refusal is thrown inside the transaction, so that nothing joined to it (an
        // operator's audit row) is written for a change that did not happen.
        let changed = try await database.writeChanging { db in
            let changed = try db.execute("UPDATE tenants SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL", now, id)
            // Every cache that holds this tenant's keys or applications forgets them.
            if changed > 0 { try invalidations.announce(db, cache: CacheInvalidations.everyCache, key: nil) }
            if changed == 0, try db.queryOne("SELECT id FROM tenants WHERE id = ?", id) == nil { throw CoreError.notFound(.tenant) }
            // Already so: nothing to keep (and nothing joined to it, such as an audit row).
            if changed == 0 { throw NothingChanged(0) }
            return changed
        }
        if changed > 0 { invalidations.drop(cache: CacheInvalidations.everyCache, key: nil) }
    }

    /// Enables a disabled tenant again: its keys authenticate from now on. Enabling an enabled one changes nothing.
    @discardableResult
    public func enableTenant(id: String) async throws -> Tenant {
        let invalidations = environment.invalidations
        let changed = try await database.writeChanging { db in
            let changed = try db.execute("UPDATE tenants SET disabled_at = NULL WHERE id = ? AND disabled_at IS NOT NULL", id)
            // A cache may hold "this tenant is disabled": every one forgets it.
            if changed > 0 { try invalidations.announce(db, cache: CacheInvalidations.everyCache, key: nil) }
            if changed == 0, try db.queryOne("SELECT id FROM tenants WHERE id = ?", id) == nil { throw CoreError.notFound(.tenant) }
            // Already so: nothing to keep (and nothing joined to it, such as an audit row).
            if changed == 0 { throw NothingChanged(0) }
            return changed
        }
        if changed > 0 { invalidations.drop(cache: CacheInvalidations.everyCache, key: nil) }
        return try await tenant(id: id)
    }

    public func createApplication(tenantID: String, name: String) async throws -> Application {
        let name = try Self.validName(name, field: "name")
        let id = environment.ids.next().lowercased
        let now = environment.clock.now
        return try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else {
                throw CoreError.notFound(.tenant)
            }
            try db.execute(
                "INSERT INTO applications (id, tenant_id, name, created_at) VALUES (?, ?, ?, ?)", id, tenantID, name, now)
            return try Application(row: try db.queryOne("SELECT * FROM applications WHERE id = ?", id)!)
        }
    }

    public func applications(tenantID: String) async throws -> [Application] {
        _ = try await tenant(id: tenantID)
        return try await database.read { db in
            try db.query("SELECT * FROM applications WHERE tenant_id = ? ORDER BY created_at, id", tenantID)
                .map(Application.init(row:))
        }
    }

    static func validName(_ raw: String, field: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 200 else {
            throw CoreError.invalid(field, .length(1...200))
        }
        guard !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw CoreError.invalid(field, .noControlCharacters)
        }
        return name
    }
}
