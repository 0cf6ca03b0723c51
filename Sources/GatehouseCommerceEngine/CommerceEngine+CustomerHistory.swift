import Foundation
import GatehouseDatabase

/// Everything the stores granted one holder, and what they said about it: the operators'
/// view of a customer, in the manner of RevenueCat's customer page.
public struct CustomerHistory: Sendable, Equatable {
    /// A one-time purchase: credits, or a non-renewing product.
    public struct Purchase: Sendable, Equatable {
        public let transactionId: String
        public let productId: String
        public let kind: String
        public let credits: Int
        public let store: String
        public let environment: String
        public let createdAt: Date
        public let revokedAt: Date?
    }

    /// A store notification about one of the holder's purchases, and what it did.
    public struct Notification: Sendable, Equatable {
        public let id: String
        public let type: String
        public let subtype: String?
        public let store: String
        /// `applied`, `recorded`, … as the engine decided.
        public let outcome: String
        public let signedAt: Date?
        public let receivedAt: Date
    }

    public let subscriptions: [Subscription]
    public let purchases: [Purchase]
    /// Credits per wallet kind.
    public let wallets: [String: Int64]
    public let notifications: [Notification]
}

extension CommerceEngine {
    /// The holder's grants by store, wallets and store notifications (newest first, at most 200).
    /// `holder` is a Gatehouse account id, or `customer:<id>` for a SubscriptionFlow customer.
    public func customerHistory(tenantID: String, holder: String) async throws -> CustomerHistory {
        try await database.read { db in
            let subscriptions = try db.query(
                "SELECT * FROM commerce_subscriptions WHERE tenant_id = ? AND account_id = ? ORDER BY purchased_at DESC, id", tenantID, holder
            ).map(Subscription.init)
            let purchases = try db.query(
                "SELECT * FROM commerce_purchases WHERE tenant_id = ? AND account_id = ? ORDER BY created_at DESC, transaction_id", tenantID, holder
            ).map { row in
                CustomerHistory.Purchase(
                    transactionId: try row.get("transaction_id"), productId: try row.get("platform_product_id"), kind: try row.get("kind"),
                    credits: try row.get("credits"), store: try row.get("store", as: String?.self) ?? "apple", environment: try row.get("environment"),
                    createdAt: try row.get("created_at"), revokedAt: try row.get("revoked_at"))
            }
            var wallets: [String: Int64] = [:]
            for row in try db.query("SELECT kind, credits FROM commerce_wallets WHERE tenant_id = ? AND account_id = ?", tenantID, holder) {
                wallets[try row.get("kind")] = try row.get("credits")
            }
            // A notification names an App Store chain by its original transaction, a Google
            // Play token by `google:<token hash>`.
            var chains = Set(subscriptions.filter { $0.store == "apple" }.map(\.originalTransactionId))
            chains.formUnion(try db.query(
                "SELECT original_transaction_id FROM commerce_purchases WHERE tenant_id = ? AND account_id = ? AND (store IS NULL OR store = 'apple')",
                tenantID, holder
            ).map { try $0.get("original_transaction_id") as String })
            chains.formUnion(try db.query(
                "SELECT google_token_hash FROM commerce_subscriptions WHERE tenant_id = ? AND account_id = ? AND google_token_hash IS NOT NULL", tenantID, holder
            ).map { GooglePurchaseToken.purchaseKey(try $0.get("google_token_hash")) })
            var notifications: [CustomerHistory.Notification] = []
            let ordered = chains.sorted()
            // In groups, so that no statement carries more parameters than a driver takes.
            for start in stride(from: 0, to: ordered.count, by: 200) {
                let group = Array(ordered[start..<min(start + 200, ordered.count)])
                let marks = Array(repeating: "?", count: group.count).joined(separator: ", ")
                notifications += try db.query(
                    "SELECT * FROM commerce_notifications WHERE tenant_id = ? AND original_transaction_id IN (\(marks)) ORDER BY received_at DESC LIMIT 200",
                    [.text(tenantID)] + group.map { .text($0) }
                ).map { row in
                    let id: String = try row.get("notification_uuid")
                    return CustomerHistory.Notification(
                        id: id, type: try row.get("notification_type"), subtype: try row.get("subtype"), store: id.hasPrefix("google:") ? "google" : "apple",
                        outcome: try row.get("outcome"), signedAt: try row.get("signed_at"), receivedAt: try row.get("received_at"))
                }
            }
            notifications.sort { $0.receivedAt > $1.receivedAt }
            return CustomerHistory(subscriptions: subscriptions, purchases: purchases, wallets: wallets, notifications: Array(notifications.prefix(200)))
        }
    }
}

extension CommerceEngine {
    /// Subscriptions that give access now (active or in grace), for one tenant or all.
    public func activeSubscriptionCount(tenantID: String?) async throws -> Int {
        let now = environment.clock.now
        let scoped = tenantID == nil ? "" : " AND tenant_id = ?"
        let arguments: [SQLValue] = [now.sqlValue, now.sqlValue, now.sqlValue] + (tenantID.map { [.text($0)] } ?? [])
        return try await database.read { db in
            try db.queryOne(
                """
                SELECT COUNT(*) AS n FROM commerce_subscriptions WHERE revoked_at IS NULL AND (ended_at IS NULL OR ended_at > ?)
                  AND (expires_at > ? OR grace_expires_at > ?)\(scoped)
                """, arguments)?.get("n") ?? 0
        }
    }
}
