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

    /// A key by id for verification: current, or retired less than `grace` ago.
    static func find(_ db: any DatabaseConnection, tenantID: String, keyID: String, now: Date, grace: TimeInterval) throws -> Key? {
        guard let row = try db.queryOne(
            "SELECT key_id, secret, retired_at FROM tenant_signing_keys WHERE tenant_id = ? AND key_id = ?", tenantID, keyID)
        else { return nil }
        let retired: Date? = try row.get("retired_at")
        if let retired, now.timeIntervalSince(retired) > grace { return nil }
        return Key(id: try row.get("key_id"), secret: try row.get("secret"))
    }

    /// Retires the current key and makes a new one.
    static func rotate(_ db: any DatabaseConnection, tenantID: String, now: Date, random: any RandomSource) throws -> Key {
        try db.execute("UPDATE tenant_signing_keys SET retired_at = ? WHERE tenant_id = ? AND retired_at IS NULL", now, tenantID)
        return try create(db, tenantID: tenantID, now: now, random: random)
    }
}
