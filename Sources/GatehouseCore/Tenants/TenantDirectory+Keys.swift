import Foundation
import GatehouseCrypto
import GatehouseDatabase

extension TenantDirectory {
    /// Issues an API key for a tenant (optionally bound to one of its applications).
    public func issueKey(tenantID: String, applicationID: String? = nil, label: String, platform: String? = nil) async throws -> IssuedKey {
        let label = try Self.validName(label, field: "label")
        if let platform, !Self.platforms.contains(platform) {
            throw CoreError.invalid("platform", .oneOf(["IOS", "ANDROID", "WEB"]))
        }
        let id = environment.ids.next()
        let (secret, hash) = SecretToken.issue(prefix: Self.keyPrefix, id: id, random: environment.random)
        let now = environment.clock.now
        let key = try await database.write { db -> APIKey in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else {
                throw CoreError.notFound(.tenant)
            }
            if let applicationID,
                try db.queryOne("SELECT id FROM applications WHERE id = ? AND tenant_id = ?", applicationID, tenantID) == nil
            {
                throw CoreError.notFound(.application)
            }
            try db.execute(
                "INSERT INTO api_keys (id, tenant_id, application_id, label, secret_hash, created_at, platform) VALUES (?, ?, ?, ?, ?, ?, ?)",
                id.lowercased, tenantID, applicationID, label, hash, now, platform)
            return try APIKey(row: try db.queryOne("SELECT * FROM api_keys WHERE id = ?", id.lowercased)!)
        }
        return IssuedKey(key: key, secret: secret)
    }

    public func keys(tenantID: String) async throws -> [APIKey] {
        _ = try await tenant(id: tenantID)
        return try await database.read { db in
            try db.query("SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id", tenantID).map(APIKey.init(row:))
        }
    }

    /// The platforms a sign-in key can be for.
    public static let platforms: Set<String> = ["IOS", "ANDROID", "WEB"]

    /// Revokes a key; another tenant's key id is "not found", never "forbidden".
    public func revokeKey(tenantID: String, keyID: String) async throws {
        let now = environment.clock.now
        let invalidations = environment.invalidations
        try await database.writeChanging { db in
            let row = try db.queryOne("SELECT revoked_at FROM api_keys WHERE id = ? AND tenant_id = ?", keyID, tenantID)
            guard row != nil else { throw CoreError.notFound(.key) }
            // Revoked before: nothing to keep (and nothing joined to it, such as an audit row).
            guard try db.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", now, keyID) == 1 else { throw NothingChanged(()) }
            try invalidations.announce(db, cache: Self.keyCacheName, key: keyID)
        }
        invalidations.drop(cache: Self.keyCacheName, key: keyID)
    }

    /// The key a presented secret belongs to, if it is live and its tenant enabled. The key's
    /// row is cached for a few seconds (see ``NodeCache``); the secret is checked every time.
    public func authenticate(apiKey presented: String) async throws -> APIKey? {
        guard let token = SecretToken.parse(presented, prefix: Self.keyPrefix) else { return nil }
        let clock = environment.clock
        var found = keyCache.cached(token.id, now: clock.now)
        if found == nil {
            let generation = keyCache.currentGeneration
            found = try await database.read { db -> CachedKey? in
                let sql = """
                    SELECT k.*, t.disabled_at AS tenant_disabled_at FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
                    WHERE k.id = ?
                    """
                guard let row = try db.query(sql, [.text(token.id)]).first else { return nil }
                return CachedKey(
                    key: try APIKey(row: row), hash: try row.get("secret_hash"), isLive: try row.get("revoked_at", as: Date?.self) == nil
                        && (try row.get("tenant_disabled_at", as: Date?.self)) == nil)
            }
            if let found { keyCache.store(found, for: token.id, loadedIn: generation, now: clock.now) }
        }
        guard let found, token.matches(hash: found.hash), found.isLive else { return nil }
        return found.key
    }

    /// Issues an operator token for the admin API.
    public func issueAdminToken(label: String) async throws -> String {
        let id = environment.ids.next()
        let (token, hash) = SecretToken.issue(prefix: Self.adminPrefix, id: id, random: environment.random)
        let now = environment.clock.now
        try await database.write { db in
            try db.execute(
                "INSERT INTO admin_tokens (id, label, token_hash, created_at) VALUES (?, ?, ?, ?)", id.lowercased, label, hash, now)
        }
        return token
    }

    /// Whether a presented admin token is live.
    public func verifyAdminToken(_ presented: String) async throws -> Bool {
        guard let token = SecretToken.parse(presented, prefix: Self.adminPrefix) else { return false }
        return try await database.read { db in
            guard let row = try db.query("SELECT token_hash, revoked_at FROM admin_tokens WHERE id = ?", [.text(token.id)]).first
            else { return false }
            let revoked: Date? = try row.get("revoked_at")
            return token.matches(hash: try row.get("token_hash")) && revoked == nil
        }
    }

    /// True when no tenant exists yet (first start).
    public func isEmpty() async throws -> Bool {
        try await database.read { db in try db.queryOne("SELECT id FROM tenants LIMIT 1") == nil }
    }
}

/// An API key's row as the key check needs it.
struct CachedKey: Sendable {
    let key: APIKey
    let hash: [UInt8]
    /// Not revoked, and its tenant not disabled.
    let isLive: Bool
}
