import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseFormats

extension ConsoleEngine {
    /// Opens a session for an operator who just signed in. The cookie's token is random and
    /// kept only as its SHA-256; signing in counts as typing the password.
    public func openSession(for account: ConsoleOperator, clientAddress: String) async throws -> OpenedConsoleSession {
        let token = Base64URL.encode(environment.random.bytes(32))
        let csrf = Base64URL.encode(environment.random.bytes(32))
        let (id, now) = (Self.sessionID(token), environment.clock.now)
        try await database.write { db in
            try db.execute(
                "INSERT INTO console_sessions (id, operator_id, csrf_token, client_address, created_at, seen_at, confirmed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                id, account.id, csrf, clientAddress, now, now, now)
        }
        return OpenedConsoleSession(
            token: token, session: ConsoleSession(id: id, account: account, csrfToken: csrf, createdAt: now, confirmedAt: now))
    }

    /// The live session a cookie's token names, or nil: unknown, idle past its timeout, or
    /// older than the absolute one. Its last use is written at most once a minute, so a
    /// page's reads rarely write.
    public func session(token: String) async throws -> ConsoleSession? {
        guard (20...100).contains(token.utf8.count) else { return nil }
        let (id, now) = (Self.sessionID(token), environment.clock.now)
        let row = try await database.read { db in
            try db.queryOne(
                "SELECT s.*, o.email, o.role, o.created_at AS operator_created_at FROM console_sessions s JOIN console_operators o ON o.id = s.operator_id WHERE s.id = ?",
                id)
        }
        guard let row else { return nil }
        let created: Date = try row.get("created_at")
        let seen: Date = try row.get("seen_at")
        guard now.timeIntervalSince(seen) < ConsoleSession.idleTimeout, now.timeIntervalSince(created) < ConsoleSession.absoluteTimeout else {
            _ = try await database.write { db in try db.execute("DELETE FROM console_sessions WHERE id = ?", id) }
            return nil
        }
        if now.timeIntervalSince(seen) >= 60 {
            _ = try await database.write { db in try db.execute("UPDATE console_sessions SET seen_at = ? WHERE id = ? AND seen_at < ?", now, id, now) }
        }
        let account = ConsoleOperator(
            id: try row.get("operator_id"), email: try row.get("email"), role: ConsoleOperator.Role(rawValue: try row.get("role")) ?? .viewer,
            createdAt: try row.get("operator_created_at"))
        return ConsoleSession(id: id, account: account, csrfToken: try row.get("csrf_token"), createdAt: created, confirmedAt: try row.get("confirmed_at"))
    }

    /// Ends a session (signing out).
    public func closeSession(_ session: ConsoleSession, clientAddress: String) async throws {
        let entry = AuditEntry(actor: session.account.id, action: "operator.sign_out", target: session.account.id, clientAddress: clientAddress)
        let (auditID, now) = (environment.ids.next().lowercased, environment.clock.now)
        try await database.write { db in
            try db.execute("DELETE FROM console_sessions WHERE id = ?", session.id)
            try Self.audit(db, id: auditID, entry, at: now)
        }
    }

    /// The operator types the password again before a destructive action. It counts toward
    /// the same lockout as sign-in (and is refused while one is in force); a right one clears
    /// the count; the lockout ends the operator's sessions.
    public func confirmPassword(_ session: ConsoleSession, password: String, clientAddress: String) async throws {
        let now = environment.clock.now
        let row = try await database.read { db in
            try db.queryOne("SELECT password_hash, locked_until FROM console_operators WHERE id = ?", session.account.id)
        }
        guard let hash: String = try row?.get("password_hash") else { throw ConsoleError.signInRefused }
        if let until: Date = try row?.get("locked_until"), now < until { throw ConsoleError.locked(until: until) }
        let holds = try await passwords.verify(password, against: hash)
        let auditID = environment.ids.next().lowercased
        let operatorID = session.account.id
        let lockedUntil: Date? = try await database.write { db in
            if holds {
                try db.execute("UPDATE console_sessions SET confirmed_at = ? WHERE id = ?", now, session.id)
                try db.execute("UPDATE console_operators SET failed_attempts = 0 WHERE id = ? AND (locked_until IS NULL OR locked_until <= ?)", operatorID, now)
                try Self.audit(db, id: auditID, AuditEntry(actor: operatorID, action: "operator.confirm", target: operatorID, clientAddress: clientAddress), at: now)
                return nil
            }
            let until = try Self.countFailure(db, operatorID: operatorID, now: now)
            try Self.audit(db, id: auditID, AuditEntry(actor: operatorID, action: "operator.confirm_refused", target: operatorID, clientAddress: clientAddress), at: now)
            if until != nil { try db.execute("DELETE FROM console_sessions WHERE operator_id = ?", operatorID) }
            return until
        }
        if let lockedUntil { throw ConsoleError.locked(until: lockedUntil) }
        if !holds { throw ConsoleError.signInRefused }
    }

    static func sessionID(_ token: String) -> String { SHA256.hash(Array(token.utf8)).hexString }
}
