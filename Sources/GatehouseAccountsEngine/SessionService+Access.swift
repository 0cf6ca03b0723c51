import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// A signed-in device as the sessions list shows it.
public struct SessionInfo: Sendable, Equatable {
    public let id: String
    public let deviceName: String?
    public let platform: String?
    public let appVersion: String?
    public let createdAt: Date
    public let lastUsedAt: Date
}

extension SessionService {
    /// Checks an access token and that its session is still alive, so a signed-out or
    /// evicted device stops working at once rather than when its token expires.
    public func authenticate(accessToken: String, appVersion: String? = nil) async throws -> SessionPrincipal {
        // A token seen before is not parsed again; one is remembered only once its signature
        // has been checked below, so forged tokens cannot crowd out real ones.
        let remembered = parsedAccessTokens.cached(accessToken)
        guard let parsed = remembered ?? (try? ParsedAccessToken(accessToken)) else { throw SessionError(.tokenInvalid) }
        let (keyID, claims) = (parsed.keyID, parsed.claims)
        let now = environment.clock.now
        let grace = settings.accessLifetime
        // The key and the session in one read: the session row is not trusted before the
        // token's signature is checked below.
        let (key, row) = try await database.read { db in
            let session = try db.send("SELECT * FROM account_sessions WHERE id = ? AND tenant_id = ?", claims.sid, claims.tid)
            return (
                try SigningKeys.find(db, tenantID: claims.tid, keyID: keyID, now: now, grace: grace),
                try session.rows().first.map(SessionRow.init)
            )
        }
        guard let key else { throw SessionError(.tokenInvalid) }
        do {
            try JWT.verifyHS256(parsed.token, key: key.secret, now: now)
            if remembered == nil { parsedAccessTokens.remember(parsed, for: accessToken) }
        } catch JWTError.expired {
            throw SessionError(.tokenExpired)
        } catch {
            throw SessionError(.tokenInvalid)
        }
        // Most requests only read; the row is written when there is something to record.
        guard let session = row else { throw SessionError(.sessionNotFound) }
        if let reason = session.revokedReason { throw SessionError(SessionErrorCode(rawValue: reason) ?? .sessionNotFound) }
        // The newest pair is in use: a lost-response retry with the previous refresh token is
        // no longer plausible. Last use is kept to the minute.
        let markUsed = claims.gen == session.generation && !session.currentUsed
        if markUsed || now.timeIntervalSince(session.lastUsedAt) >= 60 || (appVersion != nil && appVersion != session.appVersion) {
            try await database.write { db in
                try db.execute(
                    """
                    UPDATE account_sessions SET current_used = CASE WHEN generation = ? THEN ? ELSE current_used END,
                      last_used_at = ?, app_version = COALESCE(?, app_version) WHERE id = ?
                    """,
                    [.integer(Int64(claims.gen)), .boolean(true), now.sqlValue, appVersion.sqlValue, .text(session.id)])
            }
        }
        return SessionPrincipal(tenantId: claims.tid, accountId: claims.sub, sessionId: claims.sid, status: claims.status, generation: claims.gen)
    }

    /// The account's live sessions, newest first.
    public func sessions(accountID: String) async throws -> [SessionInfo] {
        try await database.read { db in
            try db.query(
                "SELECT * FROM account_sessions WHERE account_id = ? AND revoked_reason IS NULL ORDER BY created_at DESC, id DESC",
                [.text(accountID)]
            ).map { row in
                SessionInfo(
                    id: try row.get("id"), deviceName: try row.get("device_name"), platform: try row.get("platform"),
                    appVersion: try row.get("app_version"), createdAt: try row.get("created_at"), lastUsedAt: try row.get("last_used_at"))
            }
        }
    }

    /// Ends one of the account's sessions; another account's session is "not found".
    public func signOut(accountID: String, sessionID: String) async throws {
        let now = environment.clock.now
        let changed = try await database.write { db in
            try db.execute(
                "UPDATE account_sessions SET revoked_reason = ?, revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_reason IS NULL",
                SessionErrorCode.sessionNotFound.rawValue, now, sessionID, accountID)
        }
        if changed == 0 { throw SessionError(.sessionNotFound) }
    }

    /// Ends every session of an account (deletion ends them as `ACCOUNT_DELETED`).
    public func signOutEverywhere(accountID: String, reason: SessionErrorCode) async throws {
        let now = environment.clock.now
        try await database.write { db in
            try db.execute(
                "UPDATE account_sessions SET revoked_reason = ?, revoked_at = ? WHERE account_id = ? AND revoked_reason IS NULL",
                reason.rawValue, now, accountID)
        }
    }

    /// Retires the tenant's token key; tokens it signed keep working until they expire.
    public func rotateSigningKey(tenantID: String) async throws {
        let now = environment.clock.now
        let random = environment.random
        _ = try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            return try SigningKeys.rotate(db, tenantID: tenantID, now: now, random: random)
        }
    }
}

/// An access token split, its header and claims decoded, and nothing checked yet.
struct ParsedAccessToken: Sendable {
    /// Longer than any token this server signs: what is longer is refused unparsed.
    static let maxLength = 4096

    let token: JWT.TimedJWS
    let keyID: String
    let claims: SessionTokens.Claims

    init(_ text: String) throws {
        guard text.utf8.count <= Self.maxLength else { throw SessionError(.tokenInvalid) }
        let jws = try CompactJWS(compact: text)
        token = try JWT.TimedJWS(jws)
        guard let keyID = jws.header.kid else { throw SessionError(.tokenInvalid) }
        self.keyID = keyID
        claims = try jws.decodePayload(SessionTokens.Claims.self)
    }
}
