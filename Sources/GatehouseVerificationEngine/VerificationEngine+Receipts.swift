import Foundation
import GatehouseCore
import GatehouseDatabase

/// A provider's delivery receipt (its status callback, signature already checked by the
/// dialect): delivered or failed, recorded on the verification the provider's message id
/// names, and counted by provider and outcome for `/metrics`.
extension VerificationEngine {
    /// Records a final status; false when no verification has that provider message id
    /// (it was swept, or never ours) or it already had that status (a repeated receipt),
    /// which the caller answers like any other receipt. Only a change is counted. An
    /// undelivered code still counts as sent for the pumping guard: a carrier in on the fraud
    /// would report just that to stay out of sight.
    @discardableResult
    public func recordDeliveryReceipt(provider: String, messageId: String, delivered: Bool) async throws -> Bool {
        let now = self.now
        let status = delivered ? "delivered" : "failed"
        let changed = try await database.write { db -> Bool in
            guard let row = try db.queryOne(
                "SELECT id, delivery_status FROM verifications WHERE provider = ? AND provider_message_id = ?" + db.dialect.forUpdate, provider, messageId)
            else { return false }
            let id: String = try row.get("id")
            let previous: String? = try row.get("delivery_status")
            guard previous != status else { return false }
            try db.execute("UPDATE verifications SET delivery_status = ?, delivery_status_at = ? WHERE id = ?", status, now, id)
            return true
        }
        guard changed else { return false }
        deliveryReceipts.increment(["provider": provider, "status": status])
        if !delivered { environment.logger.warning("a provider could not deliver a code", ["provider": .plain(provider), "messageId": .plain(messageId)]) }
        return true
    }
}
