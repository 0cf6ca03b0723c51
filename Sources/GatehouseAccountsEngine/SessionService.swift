import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// Sign-in sessions with rotating refresh tokens (seed 000 §04, auth notes §6.1 and §6.3).
///
/// Every decision about one session is made in a write transaction holding its row lock,
/// so two server processes on one PostgreSQL database rotate a token exactly once.
public final class SessionService: Sendable {
    let environment: Environment
    public let settings: SessionSettings
    /// Access tokens already taken apart and verified: an app sends the same one on every
    /// request until it refreshes. The parse is remembered with the key secret the signature
    /// was checked under, so a repeat is not taken apart or MAC'd again while that key stays
    /// the token's; the key's use, the expiry and the session are checked on every request.
    let verifiedAccessTokens = BoundedMemo<String, VerifiedAccessToken>()
    /// The name live-session lookups are cached under (see ``CacheInvalidations``).
    public static let sessionCacheName = "account-sessions"
    /// Sessions by id as access checks last read them, so a busy session's check reads
    /// nothing. Every revocation announces itself in its transaction, so each node forgets
    /// the session when it commits; a rotation needs no notice, since a token newer than the
    /// cached row sends its check back to the database.
    let liveSessions: NodeCache<SessionRow>
    /// Token keys by tenant and key id. They need no notice: a key's row only ever gains a
    /// `retired_at`, judged at each use, and an entry lives no longer than the grace after it.
    let verificationKeys: NodeCache<SigningKeys.StoredKey>

    public init(environment: Environment, settings: SessionSettings = SessionSettings()) {
        self.environment = environment
        self.settings = settings
        liveSessions = NodeCache(name: Self.sessionCacheName, clock: environment.clock)
        verificationKeys = NodeCache(name: "token-keys", clock: environment.clock, lifetime: min(5, settings.accessLifetime))
        environment.invalidations.register(liveSessions)
    }

    var database: any Database { environment.database }

    /// Exchanges a refresh token for a new pair (see `RefreshDecision` for the rules).
    public func refresh(_ token: String) async throws -> TokenPair {
        guard let presented = SessionTokens.parseRefresh(token) else { throw SessionError(.tokenInvalid) }
        let now = environment.clock.now
        let settings = self.settings
        let random = environment.random
        let outcome = try await database.write { db -> Result<TokenPair, SessionError> in
            // The session's lock if the token is its current one (a rotation writes), the session
            // as it stands, its account and its tenant's key, in one round trip: the lock is held
            // for as few round trips as can be (this one and COMMIT's). Any other token's answer
            // writes nothing or ends the session, neither of which needs the lock, so refreshes
            // racing on the previous token (an app and its extension, a retried request) do not
            // queue behind one another; a row locked by a rotation in flight fails the
            // generation test once that commits, and the next statement reads the new row.
            let locked = try db.send(
                "SELECT * FROM account_sessions WHERE id = ? AND generation = ?" + db.dialect.forUpdate, presented.sessionID, presented.generation)
            let latest = try db.send("SELECT * FROM account_sessions WHERE id = ?", presented.sessionID)
            let owner = try db.send(
                "SELECT status, deleted_at FROM accounts WHERE id = (SELECT account_id FROM account_sessions WHERE id = ?)", presented.sessionID)
            let currentKey = try SigningKeys.sendCurrent(db, ofSession: presented.sessionID)
            let lockedRow = try locked.rows().first
            guard let row = try lockedRow ?? latest.rows().first else { return .failure(SessionError(.sessionNotFound)) }
            let session = try SessionRow(row)
            guard constantTimeEquals(
                Data(SessionTokens.mac(sessionID: session.id, generation: presented.generation, secret: session.secret).utf8),
                Data(presented.mac.utf8))
            else { return .failure(SessionError(.tokenInvalid)) }
            if let ending = session.ending { return .failure(ending) }
            if let expired = session.expiry(at: now, settings: settings) {
                try self.revoke(db, session.id, reason: expired, now: now)
                return .failure(SessionError(expired))
            }
            let account = try owner.rows().first
            guard let account, try account.get("deleted_at", as: Date?.self) == nil else { return .failure(SessionError(.accountDeleted)) }
            let status: String = try account.get("status")
            switch RefreshDecision.decide(presented: presented.generation, session: session, now: now, grace: settings.reuseGrace) {
            case .rotate:
                // Only the locked row can say rotate: generations only grow, so a row the
                // locking read passed over never comes back with the presented one.
                guard lockedRow != nil else { return .failure(SessionError(.sessionNotFound)) }
                let next = session.generation + 1
                try db.send(
                    """
                    UPDATE account_sessions SET generation = ?, rotated_at = ?, current_used = ?, last_used_at = ?,
                      refresh_expires_at = ? WHERE id = ?
                    """,
                    [.integer(Int64(next)), now.sqlValue, .boolean(false), now.sqlValue,
                     min(now.addingTimeInterval(settings.refreshLifetime), session.absoluteExpiresAt).sqlValue, .text(session.id)])
                let key = try SigningKeys.current(db, sent: currentKey, tenantID: session.tenantID, now: now, random: random)
                return .success(try Self.pair(session: session, status: status, generation: next, rotatedAt: now, key: key, settings: settings))
            case .reissueCurrent:
                let key = try SigningKeys.current(db, sent: currentKey, tenantID: session.tenantID, now: now, random: random)
                return .success(try Self.pair(
                    session: session, status: status, generation: session.generation, rotatedAt: session.rotatedAt, key: key, settings: settings))
            case .reuse:
                try self.revoke(db, session.id, reason: .tokenReused, now: now)
                return .failure(SessionError(.tokenReused))
            }
        }
        switch outcome {
        case .success(let pair): return pair
        case .failure(let error):
            // These refusals ended the session (or found it ended); the others (a wrong MAC, an
            // unknown session) come from whoever holds a token, and change nothing here.
            if error.code == .tokenReused || error.code == .tokenExpired { forgetEnded([presented.sessionID]) }
            environment.logger.info("refresh refused", ["code": error.code.rawValue, "session": presented.sessionID])
            throw error
        }
    }

    /// Issues a fresh pair for a session (after `activate` changed the account's status).
    public func rotate(_ principal: SessionPrincipal) async throws -> TokenPair {
        let now = environment.clock.now
        let settings = self.settings
        let random = environment.random
        return try await database.write { db in
            guard let row = try db.queryOne("SELECT * FROM account_sessions WHERE id = ?" + db.dialect.forUpdate, principal.sessionId)
            else { throw SessionError(.sessionNotFound) }
            let session = try SessionRow(row)
            if let ending = session.ending { throw ending }
            let status: String = try db.queryOne("SELECT status FROM accounts WHERE id = ?", session.accountID)!.get("status")
            let next = session.generation + 1
            try db.execute(
                "UPDATE account_sessions SET generation = ?, rotated_at = ?, current_used = ?, last_used_at = ? WHERE id = ?",
                [.integer(Int64(next)), now.sqlValue, .boolean(false), now.sqlValue, .text(session.id)])
            let key = try SigningKeys.current(db, tenantID: session.tenantID, now: now, random: random)
            return try Self.pair(session: session, status: status, generation: next, rotatedAt: now, key: key, settings: settings)
        }
    }

    func revoke(_ db: any DatabaseConnection, _ sessionID: String, reason: SessionErrorCode, now: Date) throws {
        try db.execute(
            "UPDATE account_sessions SET revoked_reason = ?, revoked_at = ? WHERE id = ? AND revoked_reason IS NULL",
            reason.rawValue, now, sessionID)
        try announceEnded(db, [sessionID])
    }

    /// Tells every node, when the caller's transaction commits, that these sessions ended
    /// (see ``liveSessions``); the caller then calls ``forgetEnded(_:)`` for this node.
    func announceEnded(_ db: any DatabaseConnection, _ sessionIDs: [String]) throws {
        for sessionID in sessionIDs {
            try environment.invalidations.announce(db, cache: Self.sessionCacheName, key: sessionID)
        }
    }

    /// Forgets ended sessions on this node, once their transaction has committed.
    func forgetEnded(_ sessionIDs: [String]) {
        for sessionID in sessionIDs { environment.invalidations.drop(cache: Self.sessionCacheName, key: sessionID) }
    }

    static func pair(
        session: SessionRow, status: String, generation: Int, rotatedAt: Date, key: SigningKeys.Key, settings: SessionSettings
    ) throws -> TokenPair {
        try pair(
            session: session.id, tenantID: session.tenantID, accountID: session.accountID, status: status, generation: generation,
            rotatedAt: rotatedAt, secret: session.secret, key: key, settings: settings)
    }

    static func pair(
        session: String, tenantID: String, accountID: String, status: String, generation: Int, rotatedAt: Date, secret: [UInt8],
        key: SigningKeys.Key, settings: SessionSettings
    ) throws -> TokenPair {
        let issued = Int64(rotatedAt.timeIntervalSince1970.rounded(.down))
        let claims = SessionTokens.Claims(
            sub: accountID, sid: session, tid: tenantID, status: status, gen: generation, iat: issued,
            exp: issued + Int64(settings.accessLifetime))
        return TokenPair(
            accessToken: try SessionTokens.access(claims, key: key),
            refreshToken: SessionTokens.refresh(sessionID: session, generation: generation, secret: secret),
            expiresIn: Int(settings.accessLifetime))
    }
}
