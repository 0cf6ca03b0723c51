import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// The operator's side: saving, reading and removing a tenant's definitions.
extension ManagedAPIsEngine {
    /// Saves (creates or replaces) a definition. A secret left out keeps the stored one, if
    /// the auth type is unchanged; a definition that cannot work in its mode is refused.
    @discardableResult
    public func saveDefinition(tenantID: String, _ definition: ManagedAPIDefinition) async throws -> ManagedAPIDefinition {
        if let rule = ManagedAPIDefinition.nameProblem(definition.name) { throw ManagedAPIError(.definitionInvalid, .definition(rule)) }
        let given = definition.auth.secret
        let sealed = try given.map { secret -> String in
            guard let secrets else {
                throw ManagedAPIError(.secretKeyMissing, .secretKeyMissing(saving: true))
            }
            return secrets.seal(secret, context: Self.secretContext(tenantID: tenantID, name: definition.name))
        }
        let settings = try Self.encode(StoredAuth(definition.auth))
        let metadata = try Self.encode(definition.metadata)
        let now = self.now
        let (invalidations, key) = (environment.invalidations, Self.definitionKey(tenantID: tenantID, name: definition.name))
        let saved = try await database.write { db -> ManagedAPIDefinition in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            // Saves of one definition take turns, so a kept secret is the one of the row it replaces.
            try db.takeTurn("managed-api-definition:\(tenantID)\n\(definition.name)")
            // A kept secret belongs to the same auth type only (a bearer token must not become a
            // password), and a direct definition keeps none.
            let stored = try db.queryOne(
                "SELECT * FROM managed_api_definitions WHERE tenant_id = ? AND name = ? AND auth_type = ?",
                tenantID, definition.name, definition.auth.type.rawValue)
            // Nor does a secret follow its definition to another destination: whoever may edit a
            // definition must not be able to have its secret sent to a server of their choosing.
            let sameDestination = try stored.map { try Self.definition($0).destination == definition.destination } ?? false
            let kept: String? = given == nil && definition.mode == .proxied && sameDestination ? try stored?.get("sealed_secret") : nil
            if let rule = definition.problem(storedSecret: kept != nil) { throw ManagedAPIError(.definitionInvalid, .definition(rule)) }
            let secret = sealed ?? kept
            try db.execute(
                """
                INSERT INTO managed_api_definitions (tenant_id, name, display_name, base_url, auth_type, mode, development, auth_settings,
                  sealed_secret, metadata, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id, name) DO UPDATE SET display_name = excluded.display_name, base_url = excluded.base_url,
                  auth_type = excluded.auth_type, mode = excluded.mode, development = excluded.development,
                  auth_settings = excluded.auth_settings, sealed_secret = excluded.sealed_secret, metadata = excluded.metadata,
                  updated_at = excluded.updated_at
                """,
                [.text(tenantID), .text(definition.name), .text(definition.displayName), .text(definition.baseURL.absoluteString),
                 .text(definition.auth.type.rawValue), .text(definition.mode.rawValue), .boolean(definition.development), .text(settings),
                 secret.map(SQLValue.text) ?? .null, .text(metadata), now.sqlValue, now.sqlValue])
            // A changed client must not reuse the token the old one was given.
            try db.execute("DELETE FROM managed_api_tokens WHERE tenant_id = ? AND name = ?", tenantID, definition.name)
            try invalidations.announce(db, cache: Self.definitionCacheName, key: key)
            var saved = definition
            saved.auth = definition.auth.with(secret: nil)
            saved.hasSecret = secret != nil
            saved.updatedAt = now
            return saved
        }
        invalidations.drop(cache: Self.definitionCacheName, key: key)
        return saved
    }

    /// Every definition of the tenant, by name, secrets left out.
    public func definitions(tenantID: String) async throws -> [ManagedAPIDefinition] {
        try await database.read { db in
            try db.query("SELECT * FROM managed_api_definitions WHERE tenant_id = ? ORDER BY name", [.text(tenantID)]).map(Self.definition)
        }
    }

    /// One definition, its secret left out.
    public func definition(tenantID: String, name: String) async throws -> ManagedAPIDefinition {
        try await database.read { db in try Self.definition(db, tenantID: tenantID, name: name) }
    }

    /// Removes a definition and the token the server held for it.
    public func deleteDefinition(tenantID: String, name: String) async throws {
        let (invalidations, key) = (environment.invalidations, Self.definitionKey(tenantID: tenantID, name: name))
        let removed = try await database.write { db -> Int in
            try db.execute("DELETE FROM managed_api_tokens WHERE tenant_id = ? AND name = ?", tenantID, name)
            try invalidations.announce(db, cache: Self.definitionCacheName, key: key)
            return try db.execute("DELETE FROM managed_api_definitions WHERE tenant_id = ? AND name = ?", tenantID, name)
        }
        invalidations.drop(cache: Self.definitionCacheName, key: key)
        if removed == 0 { throw ManagedAPIError.notFound(name) }
    }

    static func definition(_ db: any DatabaseConnection, tenantID: String, name: String) throws -> ManagedAPIDefinition {
        guard let row = try db.queryOne("SELECT * FROM managed_api_definitions WHERE tenant_id = ? AND name = ?", tenantID, name) else {
            throw ManagedAPIError.notFound(name)
        }
        return try definition(row)
    }

    static func definition(_ row: Row) throws -> ManagedAPIDefinition {
        guard let type = ManagedAPIDefinition.AuthType(rawValue: try row.get("auth_type")),
            let mode = ManagedAPIDefinition.Mode(rawValue: try row.get("mode")), let base = URL(string: try row.get("base_url"))
        else { throw ManagedAPIError.credentialUnavailable(.storedDefinitionUnreadable) }
        let stored: StoredAuth = try decode(try row.get("auth_settings"))
        let sealed: String? = try row.get("sealed_secret")
        return ManagedAPIDefinition(
            name: try row.get("name"), displayName: try row.get("display_name"), baseURL: base, auth: try stored.auth(type), mode: mode,
            development: try row.get("development"), metadata: try decode(try row.get("metadata")), hasSecret: sealed != nil,
            updatedAt: try row.get("updated_at"))
    }

    /// The associated data a definition's secret is sealed under: it opens in its own row only.
    static func secretContext(tenantID: String, name: String) -> String { "managed-api-secret\n\(tenantID)\n\(name)" }

    static func encode<T: Encodable>(_ value: T) throws -> String { try StoredJSON.encode(value) }

    static func decode<T: Decodable>(_ text: String) throws -> T { try StoredJSON.decode(text) }
}
