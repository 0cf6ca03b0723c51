import Foundation
import GatehouseCore
import GatehouseDatabase

/// What the operator sees of a request callback that failed: the last failure of each
/// application (kept in a row of its own, written only when a callback fails, so a working
/// callback writes nothing) and a log line for each.
public struct CallbackFailure: Sendable, Equatable {
    /// What went wrong: unreachable, timed out, a non-2xx status, an unreadable answer.
    public let reason: String
    public let at: Date
}

extension VerificationEngine {
    func noteCallbackFailure(_ app: OTPApplication, reason: String, now: Date) async throws {
        environment.logger.warning(
            "verification request callback failed; the start is denied (denied_invalid_callback_response)",
            ["application": .plain(app.id), "reason": .plain(reason)])
        try await database.write { db in
            try db.execute(
                """
                INSERT INTO otp_callback_failures (application_id, reason, failed_at) VALUES (?, ?, ?)
                ON CONFLICT (application_id) DO UPDATE SET reason = excluded.reason, failed_at = excluded.failed_at
                """, app.id, reason, now)
        }
    }

    /// The application's last callback failure, if any.
    public func lastCallbackFailure(applicationID: String) async throws -> CallbackFailure? {
        try await database.read { db in
            try db.queryOne("SELECT reason, failed_at FROM otp_callback_failures WHERE application_id = ?", applicationID).map {
                CallbackFailure(reason: try $0.get("reason"), at: try $0.get("failed_at"))
            }
        }
    }
}
