import Foundation
import GatehouseCore
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
            id: environment.ids.next().lowercased, tenantId: record.tenantId, channel: channel,
            to: record.destination, body: body, createdAt: now)
    }

    /// Hands the message to the provider and records the outcome. Until this finishes the
    /// verification answers reports with `not_ready_to_report`.
    func dispatch(_ record: VerificationRecord, message: OutboundMessage) async {
        var delivered = true
        do {
            try await delivery.deliver(message)
        } catch {
            delivered = false
            environment.logger.warning("verification delivery failed", ["verification": record.id, "error": "\(error)"])
        }
        let finishedAt = now
        do {
            try await database.write { db in
                if delivered {
                    try db.execute("UPDATE verifications SET dispatched_at = ? WHERE id = ? AND dispatched_at IS NULL", finishedAt, record.id)
                } else {
                    try db.execute(
                        """
                        UPDATE verifications SET status = 'failed', error_code = ?, finished_at = ?, code_hash = NULL
                        WHERE id = ? AND status = 'pending'
                        """,
                        VerificationOutcome.failedToDeliver.rawValue, finishedAt, record.id)
                }
            }
        } catch {
            environment.logger.error("could not record dispatch", ["verification": record.id, "error": "\(error)"])
        }
    }

    /// Housekeeping, run periodically by the server: a dispatch that never finished (its
    /// node died with the code in memory) fails as undeliverable; finished verifications
    /// past retention are deleted; old counters go.
    public func sweep() async throws {
        let now = self.now
        let staleClaim = now.addingTimeInterval(-settings.dispatchRetryAfter)
        let cutoff = now.addingTimeInterval(-settings.retention)
        try await database.write { db in
            try db.execute(
                """
                UPDATE verifications SET status = 'failed', error_code = ?, finished_at = ?, code_hash = NULL
                WHERE status = 'pending' AND dispatched_at IS NULL AND dispatch_claimed_at < ?
                """,
                VerificationOutcome.failedToDeliver.rawValue, now, staleClaim)
            try db.execute(
                """
                DELETE FROM verifications
                WHERE (finished_at IS NOT NULL AND finished_at < ?) OR (status = 'pending' AND expires_at < ?)
                """,
                cutoff, cutoff)
            try RateCounter.prune(db, before: now.addingTimeInterval(-2 * 86_400))
        }
    }
}
