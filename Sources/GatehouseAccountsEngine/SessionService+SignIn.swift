import Foundation
import GatehouseCore
import GatehouseDatabase

// Starting a session: the account's lock, its live sessions and the tenant's key are read
// without waiting, so that a sign-in code's check carries them (see `AccountsEngine.verifyCode`).
extension SessionService {
    /// Starts a session for an account; past the limit the least recently created ends
    /// with `SESSION_EVICTED`. The account row is locked so two sign-ins cannot both be
    /// the one that stays under the limit.
    public func signIn(tenantID: String, accountID: String, device: DeviceInfo) async throws -> TokenPair {
        let now = environment.clock.now
        let started = try await database.write { db in try self.signIn(db, tenantID: tenantID, accountID: accountID, device: device, now: now) }
        return started.committed(to: self)
    }

    /// The same inside a transaction the caller holds (a passkey checked in it); the caller
    /// passes what it returns to ``StartedSession/committed(to:)`` after the commit.
    func signIn(_ db: any DatabaseConnection, tenantID: String, accountID: String, device: DeviceInfo, now: Date) throws -> StartedSession {
        guard let started = try sendSignIn(db, tenantID: tenantID, account: .id(accountID)).start(device: device, now: now) else {
            throw SessionError(.sessionNotFound)
        }
        return started
    }

    /// The account a sign-in is for: by id, or by the phone or email it signs in with.
    enum AccountLookup {
        case id(String)
        case identifier(Identifier)

        /// The condition on `accounts` and its argument.
        var condition: (sql: String, argument: SQLValue) {
            switch self {
            case .id(let id): return ("id = ?", .text(id))
            case .identifier(let identifier): return ("\(identifier.column) = ?", .text(identifier.value))
            }
        }
    }

    /// The texts of a sign-in's lock of its account and read of the account's live sessions,
    /// each with two arguments: `condition`'s and the tenant.
    static func signInStatements(condition: String, forUpdate: String) -> (lock: String, live: String) {
        let account = "FROM accounts WHERE \(condition) AND tenant_id = ? AND deleted_at IS NULL"
        return (
            "SELECT id, status \(account)" + forUpdate,
            "SELECT id FROM account_sessions WHERE account_id = (SELECT id \(account)) AND revoked_reason IS NULL ORDER BY created_at, id"
        )
    }

    /// A sign-in's reads, sent without waiting so that they travel with the caller's own: the
    /// account's row lock, the tenant's current key and the account's live sessions. The lock
    /// is taken first on the server, so the sessions are read after any sign-in that held it
    /// has committed. ``PendingSignIn/start(device:now:)`` writes the session; a caller that
    /// decides against it (a wrong code) writes nothing, and the account stays locked until
    /// its transaction ends.
    func sendSignIn(_ db: any DatabaseConnection, tenantID: String, account: AccountLookup) throws -> PendingSignIn {
        let (condition, argument) = account.condition
        let statements = Self.signInStatements(condition: condition, forUpdate: db.dialect.forUpdate)
        let locked = try db.send(statements.lock, [argument, .text(tenantID)])
        let key = try SigningKeys.sendCurrent(db, tenantID: tenantID)
        let live = try db.send(statements.live, [argument, .text(tenantID)])
        return PendingSignIn(service: self, db: db, tenantID: tenantID, locked: locked, key: key, live: live)
    }

    /// What ``sendSignIn(_:tenantID:account:)`` sent.
    struct PendingSignIn {
        let service: SessionService
        let db: any DatabaseConnection
        let tenantID: String
        let locked: SentStatement
        let key: SentStatement
        let live: SentStatement

        /// Starts the session; past the limit the least recently created ones end. Nil when
        /// the account is not there (or was deleted).
        func start(device: DeviceInfo, now: Date) throws -> StartedSession? {
            guard let account = try locked.rows().first else { return nil }
            let accountID: String = try account.get("id")
            let (settings, environment) = (service.settings, service.environment)
            let id = environment.ids.next().lowercased
            let secret = environment.random.bytes(32)
            let live = try self.live.rows()
            let evicted: [String] = try live.prefix(max(0, live.count - settings.maxSessions + 1)).map { try $0.get("id") }
            for sessionID in evicted {
                try db.send(
                    "UPDATE account_sessions SET revoked_reason = ?, revoked_at = ? WHERE id = ?",
                    SessionErrorCode.sessionEvicted.rawValue, now, sessionID)
            }
            try service.announceEnded(db, evicted)
            try db.send(
                """
                INSERT INTO account_sessions (id, tenant_id, account_id, secret, generation, rotated_at, current_used, created_at,
                  last_used_at, refresh_expires_at, absolute_expires_at, device_name, platform, app_version)
                VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(id), .text(tenantID), .text(accountID), .blob(secret), now.sqlValue, .boolean(false), now.sqlValue,
                    now.sqlValue, now.addingTimeInterval(settings.refreshLifetime).sqlValue,
                    now.addingTimeInterval(settings.absoluteLifetime).sqlValue, device.name.sqlValue, device.platform.sqlValue,
                    device.appVersion.sqlValue,
                ])
            let key = try SigningKeys.current(db, sent: key, tenantID: tenantID, now: now, random: environment.random)
            let pair = try SessionService.pair(
                session: id, tenantID: tenantID, accountID: accountID, status: try account.get("status"), generation: 0,
                rotatedAt: now, secret: secret, key: key, settings: settings)
            return StartedSession(pair: pair, evicted: evicted)
        }
    }
}
