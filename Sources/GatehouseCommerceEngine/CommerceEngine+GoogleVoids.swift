import Foundation
import GatehouseCore
import GatehouseDatabase

extension CommerceEngine {
    /// A purchase Google voided (refunded, charged back, revoked), by the same rules as an
    /// App Store refund: a subscription's grant is revoked when the voided order is the period
    /// it stands on (renewals share a token; a refund of an earlier one leaves the current
    /// period alone), a one-time product's credits are taken back (never below zero); once,
    /// whichever of the notification and the daily backstop says so first. The token remembers
    /// the void, so a report or a read that comes later grants nothing. Answers whether
    /// anything changed.
    func voidGooglePurchase(tenantID: String, token: String, orderID: String?, at: Date) async throws -> Bool {
        guard GooglePlayAPI.isPathSegment(token) else { return false }
        let order = orderID.flatMap { GooglePlayAPI.isPathSegment($0) ? $0 : nil }
        let hash = GooglePurchaseToken.hash(token)
        let now = environment.clock.now
        return try await database.write { db in
            try Self.lockGoogleToken(db, tenantID: tenantID, token: token, productID: nil, now: now)
            try db.execute(
                // The latest void is remembered: the order it was about, or the whole token.
                "UPDATE commerce_google_tokens SET voided_at = ?, voided_order = ? WHERE tenant_id = ? AND token_hash = ?",
                [at.sqlValue, order.sqlValue, .text(tenantID), .text(hash)])
            var sql = "UPDATE commerce_subscriptions SET revoked_at = ?, updated_at = ? WHERE tenant_id = ? AND google_token_hash = ? AND revoked_at IS NULL"
            var arguments: [SQLValue] = [at.sqlValue, now.sqlValue, .text(tenantID), .text(hash)]
            if let order {
                sql += " AND latest_transaction_id = ?"
                arguments.append(.text(order))
            }
            var changed = try db.execute(sql, arguments) > 0
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
