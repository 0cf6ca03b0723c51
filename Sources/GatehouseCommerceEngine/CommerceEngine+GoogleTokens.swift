import Foundation
import GatehouseCore
import GatehouseDatabase

/// The row each Play purchase token has in `commerce_google_tokens`: what the chain, the
/// acknowledgement and a void need to remember of it.
extension CommerceEngine {
    /// Creates (or touches) the token's row: every transaction about a token writes it first,
    /// so two of them queue on it (PostgreSQL) in the same order and never deadlock.
    static func lockGoogleToken(_ db: any DatabaseConnection, tenantID: String, token: String, productID: String?, now: Date) throws {
        try db.execute(
            """
            INSERT INTO commerce_google_tokens (tenant_id, token_hash, purchase_token, product_id, created_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (tenant_id, token_hash) DO UPDATE SET product_id = COALESCE(excluded.product_id, commerce_google_tokens.product_id)
            """,
            [.text(tenantID), .text(GooglePurchaseToken.hash(token)), .text(token), productID.sqlValue, now.sqlValue])
    }

    /// A holder was granted the purchase: Google now waits for its acknowledgement (`settle`
    /// `acknowledge`) or, for a consumable, its consumption (`consume`), unless `settled`
    /// says it has it already. Only granted purchases are ever acknowledged: one nobody holds
    /// is left for Google to refund.
    static func markGranted(_ db: any DatabaseConnection, tenantID: String, tokenHash: String, settle: String, settled: Bool, now: Date) throws {
        try db.execute(
            "UPDATE commerce_google_tokens SET settle = ?, granted_at = COALESCE(granted_at, ?) WHERE tenant_id = ? AND token_hash = ?",
            settle, now, tenantID, tokenHash)
        if settled {
            try db.execute(
                "UPDATE commerce_google_tokens SET settled_at = COALESCE(settled_at, ?) WHERE tenant_id = ? AND token_hash = ?", now, tenantID, tokenHash)
        }
    }

    /// The void Google reported for the token, if any.
    static func googleVoid(_ db: any DatabaseConnection, tenantID: String, tokenHash: String) throws -> Date? {
        try db.queryOne("SELECT voided_at FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, tokenHash)?.get("voided_at")
    }
}
