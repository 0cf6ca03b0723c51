import Foundation
import GatehouseCrypto
import GatehouseDatabase
import GatehouseFormats

/// Per-tenant HS256 keys for access tokens. New tokens use the newest key; retired keys
/// still verify until every token they signed has expired.
enum SigningKeys {
    struct Key { let id: String; let secret: [UInt8] }

    /// The tenant's current key, made on first use.
    static func current(_ db: any DatabaseConnection, tenantID: String, now: Date, random: any RandomSource) throws -> Key {
        try current(db, sent: sendCurrent(db, tenantID: tenantID), tenantID: tenantID, now: now, random: random)
    }

    /// The tenant's current key, sent without waiting (read by ``current(_:sent:tenantID:now:random:)``).
    static func sendCurrent(_ db: any DatabaseConnection, tenantID: String) throws -> SentStatement {
        try db.send(
            "SELECT key_id, secret FROM tenant_signing_keys WHERE tenant_id = ? AND retired_at IS NULL ORDER BY created_at DESC LIMIT 1",
            tenantID)
    }

    /// The current key of the tenant that owns session `sessionID`, sent without waiting, so
    /// that it travels with the session's own statements; ``current(_:sent:tenantID:now:random:)``
    /// reads it.
    static func sendCurrent(_ db: any DatabaseConnection, ofSession sessionID: String) throws -> SentStatement {
        try db.send(
            """
            SELECT key_id, secret FROM tenant_signing_keys WHERE retired_at IS NULL
              AND tenant_id = (SELECT tenant_id FROM account_sessions WHERE id = ?)
            ORDER BY created_at DESC LIMIT 1
            """, sessionID)
    }

    /// The key ``sendCurrent(_:ofSession:)`` found, or a new one when the tenant has none.
    static func current(_ db: any DatabaseConnection, sent: SentStatement, tenantID: String, now: Date, random: any RandomSource) throws -> Key {
        if let row = try sent.rows().first { return Key(id: try row.get("key_id"), secret: try row.get("secret")) }
        return try create(db, tenantID: tenantID, now: now, random: random)
    }

    static func create(_ db: any DatabaseConnection, tenantID: String, now: Date, random: any RandomSource) throws -> Key {
        let key = Key(id: Base64URL.encode(random.bytes(9)), secret: random.bytes(32))
        try db.execute(
            "INSERT INTO tenant_signing_keys (tenant_id, key_id, secret, created_at) VALUES (?, ?, ?, ?)",
            tenantID, key.id, key.secret, now)
        return key
    }

    /// A key as stored, with when it was retired: what a verification needs to judge it at
    /// any moment, so a node can keep it a few seconds (a key's row only ever gains a
    /// `retired_at`, and a cached copy older than the grace is never used, since the cache's
    /// lifetime is shorter).
    struct StoredKey {
        let key: Key
        let retiredAt: Date?

        /// The key, if it is current or was retired less than `grace` ago.
        func usable(at now: Date, grace: TimeInterval) -> Key? {
            if let retiredAt, now.timeIntervalSince(retiredAt) > grace { return nil }
            return key
        }
    }

    /// A key by id for verification, retired or not (``StoredKey/usable(at:grace:)`` judges it).
    static func find(_ db: any DatabaseConnection, tenantID: String, keyID: String) throws -> StoredKey? {
        guard let row = try db.queryOne(
            "SELECT key_id, secret, retired_at FROM tenant_signing_keys WHERE tenant_id = ? AND key_id = ?", tenantID, keyID)
        else { return nil }
        return StoredKey(key: Key(id: try row.get("key_id"), secret: try row.get("secret")), retiredAt: try row.get("retired_at"))
    }

    /// Retires the current key and makes a new one.
    static func rotate(_ db: any DatabaseConnection, tenantID: String, now: Date, random: any RandomSource) throws -> Key {
        try db.execute("UPDATE tenant_signing_keys SET retired_at = ? WHERE tenant_id = ? AND retired_at IS NULL", now, tenantID)
        return try create(db, tenantID: tenantID, now: now, random: random)
    }
}
