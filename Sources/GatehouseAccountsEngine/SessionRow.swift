import Foundation
import GatehouseDatabase

/// One `account_sessions` row.
struct SessionRow {
    let id: String
    let tenantID: String
    let accountID: String
    let secret: [UInt8]
    let generation: Int
    let rotatedAt: Date
    let currentUsed: Bool
    let createdAt: Date
    let lastUsedAt: Date
    let refreshExpiresAt: Date
    let absoluteExpiresAt: Date
    let revokedReason: String?
    let appVersion: String?
    /// The platform of the app key the session signed in with (`IOS`, `ANDROID`, `WEB`).
    let platform: String?

    init(_ row: Row) throws {
        id = try row.get("id")
        tenantID = try row.get("tenant_id")
        accountID = try row.get("account_id")
        secret = try row.get("secret")
        generation = try row.get("generation")
        rotatedAt = try row.get("rotated_at")
        currentUsed = try row.get("current_used")
        createdAt = try row.get("created_at")
        lastUsedAt = try row.get("last_used_at")
        refreshExpiresAt = try row.get("refresh_expires_at")
        absoluteExpiresAt = try row.get("absolute_expires_at")
        revokedReason = try row.get("revoked_reason")
        appVersion = try row.get("app_version")
        platform = try row.get("platform")
    }

    /// Why the session ended, as the error its requests get; nil while it is live.
    var ending: SessionError? {
        revokedReason.map { SessionError(SessionErrorCode(rawValue: $0) ?? .sessionNotFound) }
    }

    /// `.tokenExpired` once the refresh token, the idle limit or the absolute limit has passed.
    func expiry(at now: Date, settings: SessionSettings) -> SessionErrorCode? {
        if now >= refreshExpiresAt || now >= absoluteExpiresAt || now.timeIntervalSince(lastUsedAt) >= settings.idleLifetime {
            return .tokenExpired
        }
        return nil
    }
}

/// What a presented refresh token of a live session leads to.
enum RefreshDecision: Equatable {
    /// The current token: rotate to the next generation.
    case rotate
    /// The token just before the current one: hand out the current pair again, either
    /// because a racing refresh rotated it moments ago (within the grace period) or
    /// because the response carrying it was lost (its successor was never used).
    case reissueCurrent
    /// An older token, or the previous one after its successor was used: theft.
    case reuse

    static func decide(presented: Int, session: SessionRow, now: Date, grace: TimeInterval) -> RefreshDecision {
        if presented == session.generation { return .rotate }
        if presented == session.generation - 1 {
            if now.timeIntervalSince(session.rotatedAt) <= grace { return .reissueCurrent }
            if !session.currentUsed { return .reissueCurrent }
        }
        return .reuse
    }
}
