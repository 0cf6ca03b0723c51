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
        let remembered = verifiedAccessTokens.cached(accessToken)
        guard let parsed = remembered?.parsed ?? (try? ParsedAccessToken(accessToken)) else { throw SessionError(.tokenInvalid) }
        let (keyID, claims) = (parsed.keyID, parsed.claims)
        let now = environment.clock.now
        let grace = settings.accessLifetime
        let keyName = claims.tid + "\n" + keyID
        // Taken before anything is read, so that what is read is not cached past a revocation
        // announced meanwhile.
        let started = liveSessions.currentGeneration
        // A cached session older than the token (rotated since) is read again: the token
        // proves a newer generation exists.
        var session = liveSessions.cached(claims.sid, now: now).flatMap { $0.tenantID == claims.tid && $0.generation >= claims.gen ? $0 : nil }
        var stored = verificationKeys.cached(keyName, now: now)
        let cachedSession = session
        if session == nil || stored == nil {
            let keysStarted = verificationKeys.currentGeneration
            // The key and the session in one read: the session row is not trusted before the
            // token's signature is checked below.
            (stored, session) = try await database.read { db in
                let session = try db.send("SELECT * FROM account_sessions WHERE id = ? AND tenant_id = ?", claims.sid, claims.tid)
                return (
                    try SigningKeys.find(db, tenantID: claims.tid, keyID: keyID),
                    try session.rows().first.map(SessionRow.init)
                )
            }
            if let stored { verificationKeys.store(stored, for: keyName, loadedIn: keysStarted, now: now) }
        }
        guard let key = stored?.usable(at: now, grace: grace) else { throw SessionError(.tokenInvalid) }
        do {
            // These very bytes were verified under this very secret before: only the token's
            // times can have changed since. (HMAC through OpenSSL was a twentieth of a proxied
            // call's CPU, most of it fetching the algorithm.)
            if let remembered, constantTimeEquals(remembered.keySecret, key.secret) {
                try JWT.checkValidity(of: parsed.token, now: now)
            } else {
                try JWT.verifyHS256(parsed.token, key: key.secret, now: now)
                verifiedAccessTokens.remember(VerifiedAccessToken(parsed: parsed, keySecret: key.secret), for: accessToken)
            }
        } catch JWTError.expired {
            throw SessionError(.tokenExpired)
        } catch {
            throw SessionError(.tokenInvalid)
        }
        // Most requests only read; the row is written when there is something to record.
        guard let session else { throw SessionError(.sessionNotFound) }
        // Kept as read, never refreshed by a hit, so a lost notice is outlived by the entry's lifetime.
        if cachedSession == nil { liveSessions.store(session, for: session.id, loadedIn: started, now: now) }
        if let ending = session.ending { throw ending }
        // The newest pair is in use: a lost-response retry with the previous refresh token is
        // no longer plausible. Last use is kept to the minute.
        let markUsed = claims.gen == session.generation && !session.currentUsed
        if markUsed || now.timeIntervalSince(session.lastUsedAt) >= 60 || (appVersion != nil && appVersion != session.appVersion) {
            // The row as written is as fresh as a read: it replaces the cached one.
            let written = try await database.write { db in
                try db.query(
                    """
                    UPDATE account_sessions SET current_used = CASE WHEN generation = ? THEN ? ELSE current_used END,
                      last_used_at = ?, app_version = COALESCE(?, app_version) WHERE id = ? RETURNING *
                    """,
                    [.integer(Int64(claims.gen)), .boolean(true), now.sqlValue, appVersion.sqlValue, .text(session.id)]
                ).first.map(SessionRow.init)
            }
            if let written { liveSessions.store(written, for: written.id, loadedIn: started, now: now) }
            // Ended since the cached row was read (its notice not here yet): refused now.
            if let ending = written?.ending { throw ending }
        }
        return SessionPrincipal(
            tenantId: claims.tid, accountId: claims.sub, sessionId: claims.sid, status: claims.status, generation: claims.gen, platform: session.platform)
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
        // Refused inside the transaction, so nothing joined to it is written for a sign-out that ended nothing.
        try await database.write { db in
            let changed = try db.execute(
                "UPDATE account_sessions SET revoked_reason = ?, revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_reason IS NULL",
                SessionErrorCode.sessionNotFound.rawValue, now, sessionID, accountID)
            guard changed > 0 else { throw SessionError(.sessionNotFound) }
            try self.announceEnded(db, [sessionID])
        }
        forgetEnded([sessionID])
    }

    /// Ends every session of an account (deletion ends them as `ACCOUNT_DELETED`).
    public func signOutEverywhere(accountID: String, reason: SessionErrorCode) async throws {
        let now = environment.clock.now
        let ended = try await database.writeChanging { db -> [String] in
            let ended: [String] = try db.query(
                "UPDATE account_sessions SET revoked_reason = ?, revoked_at = ? WHERE account_id = ? AND revoked_reason IS NULL RETURNING id",
                [.text(reason.rawValue), now.sqlValue, .text(accountID)]
            ).map { try $0.get("id") }
            // No session was live: nothing to keep (and nothing joined to it, such as an audit row).
            if ended.isEmpty { throw NothingChanged([String]()) }
            try self.announceEnded(db, ended)
            return ended
        }
        forgetEnded(ended)
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

/// An access token whose signature was checked, and the key secret it was checked under.
struct VerifiedAccessToken: Sendable {
    let parsed: ParsedAccessToken
    let keySecret: [UInt8]
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
