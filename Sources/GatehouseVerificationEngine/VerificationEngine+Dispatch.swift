import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

extension VerificationEngine {
    /// The text a person receives: the template with the code, plus the autofill line or
    /// the Android app hash.
    func render(_ record: VerificationRecord, code: String, appHash: String?) -> OutboundMessage {
        let template = record.template ?? DefaultTemplates.template(for: "en-US", channel: record.channel)
        let body: String
        switch record.channel {
        case .sms:
            let domain = record.autofillType == "domain" ? record.autofillValue : nil
            body = MessageRenderer.renderSMS(template: template, code: code, appHash: appHash, autofillDomain: domain)
        case .callout:
            body = MessageRenderer.renderCallout(template: template, code: code)
        case .email:
            body = MessageRenderer.renderSMS(template: template, code: code)
        }
        let channel: OutboundMessage.Channel = switch record.channel {
        case .sms: .sms
        case .callout: .voice
        case .email: .email
        }
        return OutboundMessage(
            id: Self.messageID(of: record.id), tenantId: record.tenantId, channel: channel,
            to: record.destination, body: body, createdAt: now, language: record.language)
    }

    /// A message id of its own, but the same for every send of one verification's code: a
    /// delivery claimed again after its lease (at least once) carries the id of the first
    /// try, so a provider bridge or mail server can drop the copy. Derived, not the
    /// verification id itself, which the provider has no need to learn.
    static func messageID(of verificationID: String) -> String {
        let hex = Array(SHA256.hash(Data("delivery:\(verificationID)".utf8)).prefix(16)).hexString
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }

    /// Renders a claimed delivery, hands it to the provider and records the outcome. A
    /// provider's refusal, or a send past `deliveryDeadline`, fails the verification (the
    /// person asks for a new code); if the outcome cannot be recorded, the lease runs out and
    /// the delivery is claimed again.
    func deliver(_ job: DeliveryJob) async {
        let message = render(job.record, code: job.code, appHash: job.appHash)
        let receipt: DeliveryReceipt?
        do {
            receipt = try await delivery.send(message, within: settings.deliveryDeadline)
        } catch {
            receipt = nil
            environment.logger.warning("verification delivery failed", ["verification": job.record.id, "error": "\(error)"])
        }
        let finishedAt = now
        let id = job.record.id
        do {
            try await database.write { db in try Self.recordDelivery(db, id, receipt: receipt, now: finishedAt) }
        } catch {
            environment.logger.error("could not record dispatch", ["verification": id, "error": "\(error)"])
        }
    }

    /// Housekeeping, run periodically by the server: a verification left waiting for a code
    /// with nothing queued to send it (started before the delivery queue existed) fails as
    /// undeliverable; finished verifications past retention are deleted; old counters go.
    public func sweep() async throws {
        let now = self.now
        let staleClaim = now.addingTimeInterval(-settings.dispatchRetryAfter)
        let cutoff = now.addingTimeInterval(-settings.retention)
        let countsCutoff = now.addingTimeInterval(-Double(settings.pumping.baselineDays + 1) * 86_400)
        try await database.write { db in
            try db.execute(
                """
                UPDATE verifications SET status = 'failed', error_code = ?, finished_at = ?, code_hash = NULL
                WHERE status = 'pending' AND dispatched_at IS NULL AND dispatch_claimed_at < ? AND expires_at > ?
                  AND NOT EXISTS (SELECT 1 FROM verification_deliveries d WHERE d.verification_id = verifications.id)
                """,
                VerificationOutcome.failedToDeliver.rawValue, now, staleClaim, now)
            try db.execute(
                """
                DELETE FROM verifications
                WHERE (finished_at IS NOT NULL AND finished_at < ?) OR (status = 'pending' AND expires_at < ?)
                """,
                cutoff, cutoff)
            // A queued code whose verification finished, expired or is gone is never sent:
            // it must not stay in the clear until a dispatcher happens to claim it.
            try db.execute(
                """
                DELETE FROM verification_deliveries WHERE NOT EXISTS (
                  SELECT 1 FROM verifications v WHERE v.id = verification_deliveries.verification_id AND v.status = 'pending' AND v.expires_at > ?)
                """,
                now)
            try db.execute("DELETE FROM verification_volume_shards WHERE period_end < ?", now)
            // The pumping guard reads its counts back `baselineDays` and keeps ended blocks 30 days.
            try db.execute(
                "DELETE FROM verification_conversion_counts WHERE hour_start < ?", countsCutoff)
            try RecentCounts.prune(db, now: now)
            try db.execute(
                "DELETE FROM verification_prefix_blocks WHERE COALESCE(lifted_at, blocked_until) < ?", now.addingTimeInterval(-30 * 86_400))
            try RateCounter.prune(db, before: now.addingTimeInterval(-2 * 86_400))
        }
    }
}
