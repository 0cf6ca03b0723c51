import Foundation
import GatehouseCore
import GatehouseDatabase

/// One claimed delivery: the verification as it stood and the code to send. The code sits
/// in the queue row, in the clear, only until the provider has taken it.
struct DeliveryJob: Sendable {
    let record: VerificationRecord
    let code: String
    let appHash: String?
}

// The durable delivery queue: a row per verification waiting to be sent, written in the
// start's transaction and claimed by a `DeliveryDispatcher`.
extension VerificationEngine {
    /// The queue row of a code sent by a start, which the start's insert carries.
    static func delivery(verificationID: String, tenantID: String, code: String, appHash: String?, now: Date) -> PendingWrite {
        PendingWrite(
            """
            INSERT INTO verification_deliveries (verification_id, tenant_id, code, app_hash, attempts, available_at, created_at)
            VALUES (?, ?, ?, ?, 0, ?, ?)
            """,
            [.text(verificationID), .text(tenantID), .text(code), appHash.sqlValue, now.sqlValue, now.sqlValue])
    }

    /// Claims up to `limit` due deliveries for `dispatchRetryAfter`. Rows whose verification
    /// no longer waits for its code (superseded, expired, purged) are dropped unsent; rows
    /// claimed `deliveryAttempts` times already fail their verification as undeliverable.
    func claimDeliveries(limit: Int) async throws -> (jobs: [DeliveryJob], settled: Int) {
        let now = self.now
        let leaseEnd = now.addingTimeInterval(settings.dispatchRetryAfter)
        let attempts = settings.deliveryAttempts
        // An idle dispatcher polls: asking first in a read keeps its polls from writing.
        let due = try await database.read { db in
            try db.queryOne("SELECT verification_id FROM verification_deliveries WHERE available_at <= ? LIMIT 1", now) != nil
        }
        guard due else { return ([], 0) }
        return try await database.write { db in
            let rows = try db.query(
                """
                SELECT verification_id, code, app_hash, attempts FROM verification_deliveries WHERE available_at <= ?
                ORDER BY available_at, verification_id LIMIT ?
                """ + db.dialect.forUpdateSkipLocked,
                [now.sqlValue, .integer(Int64(limit))])
            var jobs: [DeliveryJob] = []
            var settled = 0
            // Every claimed row's verification in one round trip.
            let verifications = try rows.map { try db.send("SELECT * FROM verifications WHERE id = ?", try $0.get("verification_id", as: String.self)) }
            for (row, verification) in zip(rows, verifications) {
                let id: String = try row.get("verification_id")
                let record = try verification.rows().first.map(VerificationRecord.init(row:))
                guard let record, record.status(at: now) == .pending, record.dispatchedAt == nil else {
                    try Self.dropDelivery(db, id)
                    settled += 1
                    continue
                }
                guard try row.get("attempts", as: Int.self) < attempts else {
                    try Self.recordDelivery(db, id, receipt: nil, now: now)
                    settled += 1
                    continue
                }
                try db.send(
                    "UPDATE verification_deliveries SET attempts = attempts + 1, available_at = ? WHERE verification_id = ?", leaseEnd, id)
                jobs.append(DeliveryJob(record: record, code: try row.get("code"), appHash: try row.get("app_hash")))
            }
            return (jobs, settled)
        }
    }

    /// The outcome of a delivery, and its row off the queue. Until this runs the
    /// verification answers reports with `not_ready_to_report`.
    /// A delivery's outcome: dispatched with the provider's message id (`receipt`), or failed (nil).
    static func recordDelivery(_ db: any DatabaseConnection, _ id: String, receipt: DeliveryReceipt?, now: Date) throws {
        if let receipt {
            try db.send(
                "UPDATE verifications SET dispatched_at = ?, provider = ?, provider_message_id = ? WHERE id = ? AND dispatched_at IS NULL",
                now, receipt.provider, receipt.messageId, id)
        } else {
            try db.send(
                """
                UPDATE verifications SET status = 'failed', error_code = ?, finished_at = ?, code_hash = NULL
                WHERE id = ? AND status = 'pending'
                """,
                VerificationOutcome.failedToDeliver.rawValue, now, id)
        }
        try dropDelivery(db, id)
    }

    static func dropDelivery(_ db: any DatabaseConnection, _ id: String) throws {
        try db.send("DELETE FROM verification_deliveries WHERE verification_id = ?", id)
    }
}
