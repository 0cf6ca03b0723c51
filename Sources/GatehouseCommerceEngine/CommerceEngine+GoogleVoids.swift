import Foundation
import GatehouseCore
import GatehouseDatabase

extension CommerceEngine {
    /// A purchase Google voided (refunded, charged back, revoked): its plan grants end at once
    /// and its credits are taken back (never below zero), once, whether the notification or
    /// the daily `voidedpurchases.list` backstop says so first. The token remembers the void,
    /// so a report or a read that comes later grants nothing. Answers whether anything changed.
    func voidGooglePurchase(tenantID: String, token: String, productType: Int?, at: Date) async throws -> Bool {
        guard GooglePlayAPI.isPathSegment(token) else { return false }
        let hash = GooglePurchaseToken.hash(token)
        let now = environment.clock.now
        return try await database.write { db in
            try db.execute(
                """
                INSERT INTO commerce_google_tokens (tenant_id, token_hash, purchase_token, kind, voided_at, created_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id, token_hash) DO UPDATE SET voided_at = COALESCE(commerce_google_tokens.voided_at, excluded.voided_at)
                """,
                [.text(tenantID), .text(hash), .text(token), .text(productType == 2 ? "product" : "subscription"), at.sqlValue, now.sqlValue])
            var changed = try db.execute(
                "UPDATE commerce_subscriptions SET revoked_at = ?, updated_at = ? WHERE tenant_id = ? AND google_token_hash = ? AND revoked_at IS NULL",
                at, now, tenantID, hash) > 0
            let purchases = try db.query(
                "SELECT transaction_id, account_id, credits FROM commerce_purchases WHERE tenant_id = ? AND original_transaction_id = ? AND revoked_at IS NULL"
                    + db.dialect.forUpdate,
                [.text(tenantID), .text(GooglePurchaseToken.purchaseKey(hash))])
            for purchase in purchases {
                try db.execute(
                    "UPDATE commerce_purchases SET revoked_at = ?, revocation_as_of = ? WHERE tenant_id = ? AND transaction_id = ?",
                    at, at, tenantID, try purchase.get("transaction_id", as: String.self))
                try Self.addCredits(db, tenantID: tenantID, accountID: try purchase.get("account_id"), -(try purchase.get("credits", as: Int.self)))
                changed = true
            }
            return changed
        }
    }
}
