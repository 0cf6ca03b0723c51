import Foundation
import GatehouseCore
import GatehouseDatabase

/// A provider's delivery receipt (its status callback, signature already checked by the
/// dialect): delivered or failed, recorded on the verification the provider's message id
/// names, and counted by provider and outcome for `/metrics`.
extension VerificationEngine {
    /// Records a final status; false when no verification has that provider message id
    /// (it was swept, or never ours), which the caller answers like any other receipt.
    @discardableResult
    public func recordDeliveryReceipt(provider: String, messageId: String, delivered: Bool) async throws -> Bool {
        let now = self.now
        let changed = try await database.write { db in
            try db.execute(
                "UPDATE verifications SET delivery_status = ?, delivery_status_at = ? WHERE provider = ? AND provider_message_id = ?",
                delivered ? "delivered" : "failed", now, provider, messageId)
        }
        deliveryReceipts.increment(["provider": provider, "status": delivered ? "delivered" : "failed"])
        if !delivered { environment.logger.warning("a provider could not deliver a code", ["provider": .plain(provider), "message": .plain(messageId)]) }
        return changed > 0
    }
}
