import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseFormats

/// Operators of the console: created with a password (kept as a scrypt hash) and a TOTP
/// second factor (its secret sealed), signed in with both, locked out after repeated
/// failures; every change is written to the audit log in the transaction that makes it.
public final class ConsoleEngine: Sendable {
    public let environment: Environment
    let secrets: SecretBox
    let passwordCost: PasswordHash.Cost
    let passwords: PasswordChecks

    /// Failures in a row that lock an operator out, and for how long.
    public static let lockoutFailures = 5
    public static let lockout: TimeInterval = 15 * 60
    static let issuer = "Gatehouse Console"

    public init(environment: Environment, secrets: SecretBox, passwordCost: PasswordHash.Cost = .standard) {
        self.environment = environment
        self.secrets = secrets
        self.passwordCost = passwordCost
        passwords = PasswordChecks(cost: passwordCost)
    }

    var database: any Database { environment.database }

    /// Creates an operator; `actor` is the operator who did (nil from the command line).
    public func createOperator(
        email raw: String, role: ConsoleOperator.Role, password: String, actor: String? = nil, clientAddress: String? = nil
    ) async throws
        -> NewConsoleOperator
    {
        let email = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard Self.isEmail(email) else { throw ConsoleError.invalidEmail }
        guard password.count >= 12, password.utf8.count <= 200 else { throw ConsoleError.weakPassword }
        let hash = try await passwords.make(password)
        let secret = TOTP.newSecret(random: SystemRandom())
        let id = environment.ids.next().lowercased
        let sealed = secrets.seal(Base32.encode(secret, padded: false), context: Self.sealContext(id))
        let now = environment.clock.now
        let auditID = environment.ids.next().lowercased
        let created: ConsoleOperator
        do {
            created = try await database.write { db in
                try db.execute(
                    "INSERT INTO console_operators (id, email, role, password_hash, totp_secret, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    id, email, role.rawValue, hash, sealed, now)
                try Self.audit(db, id: auditID, AuditEntry(actor: actor, action: "operator.create", target: id, clientAddress: clientAddress, detail: "\(email) as \(role.rawValue)"), at: now)
                return try ConsoleOperator(db.queryOne("SELECT * FROM console_operators WHERE id = ?", id)!)
            }
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            throw ConsoleError.emailTaken
        }
        return NewConsoleOperator(account: created, totpURI: TOTP(secret: secret).provisioningURI(account: email, issuer: Self.issuer))
    }

    /// Signs an operator in with their password and a current TOTP code. The slow checks
    /// run outside any transaction; the verdict, the failure count and the lock are decided
    /// and written together, so concurrent guesses cannot pass the limit.
    public func signIn(email raw: String, password: String, code: String, clientAddress: String? = nil) async throws -> ConsoleOperator {
        try await signIn(email: raw, password: password, second: .code(code), clientAddress: clientAddress)
    }

    /// The second factor: a TOTP code, or an assertion of one of the operator's passkeys (the
    /// relying party is the console as the browser reached it).
    public enum SecondFactor: Sendable {
        case code(String)
        case passkey(WebAuthnRelyingParty.Assertion, WebAuthnRelyingParty)
    }

    public func signIn(email raw: String, password: String, second: SecondFactor, clientAddress: String? = nil) async throws -> ConsoleOperator {
        let email = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let now = environment.clock.now
        let row = Self.isEmail(email)
            ? try await database.read { db in try db.queryOne("SELECT * FROM console_operators WHERE email = ?", email) }
            : nil
        let auditID = environment.ids.next().lowercased
        guard let row else {
            // The same work as for a real operator (a hash, a written refusal, failures counted
            // to a lockout), so neither the time nor the answer tells which emails are operators'.
            try await passwords.verifyDecoy(password)
            let counted = Self.isEmail(email) ? email : nil
            let lockedUntil: Date? = try await database.write { db in
                try Self.audit(db, id: auditID, AuditEntry(actor: nil, action: "operator.sign_in_refused", clientAddress: clientAddress), at: now)
                guard let counted else { return nil }
                let (count, retryAfter) = try RateCounter.hit(db, key: "console-unknown-operator\n" + counted, now: now, window: Self.lockout)
                return count >= Self.lockoutFailures ? now.addingTimeInterval(Double(retryAfter)) : nil
            }
            if let lockedUntil { throw ConsoleError.locked(until: lockedUntil) }
            throw ConsoleError.signInRefused
        }
        let id: String = try row.get("id")
        if let until: Date = try row.get("locked_until"), now < until {
            try await passwords.verifyDecoy(password)
            throw ConsoleError.locked(until: until)
        }
        let passwordHolds = try await passwords.verify(password, against: try row.get("password_hash"))
        let holds: @Sendable (any DatabaseConnection) throws -> Bool
        switch second {
        case .code(let code):
            let step = try totpStep(row, code: code, now: now)
            // A wrong password does not burn the operator's current code.
            holds = { db in
                guard let step, passwordHolds else { return false }
                return try Self.spendTOTPStep(db, operatorID: id, step: step, now: now)
            }
        case .passkey(let assertion, let party):
            holds = try await passkeyHolds(assertion, party: party, operatorID: id, now: now)
        }
        // The verdict is returned, not thrown, so the failure it counts is committed.
        enum Verdict: Sendable { case signedIn(ConsoleOperator), refused, locked(Date) }
        let verdict: Verdict = try await database.write { db in
            // A passkey's challenge is spent once the operator is known and not locked out, whatever
            // the password; a code once the password holds.
            let secondHolds = try holds(db)
            if passwordHolds, secondHolds, try db.execute(
                "UPDATE console_operators SET failed_attempts = 0, locked_until = NULL WHERE id = ? AND (locked_until IS NULL OR locked_until <= ?)",
                id, now) == 1
            {
                if case .passkey(let assertion, _) = second {
                    try db.execute("UPDATE console_passkeys SET last_used_at = ? WHERE credential_id = ? AND operator_id = ?",
                                   now, Base64URL.encode(assertion.rawID), id)
                }
                try Self.audit(db, id: auditID, AuditEntry(actor: id, action: "operator.sign_in", target: id, clientAddress: clientAddress), at: now)
                return .signedIn(try ConsoleOperator(db.queryOne("SELECT * FROM console_operators WHERE id = ?", id)!))
            }
            let lockedUntil = try Self.countFailure(db, operatorID: id, now: now)
            try Self.audit(db, id: auditID, AuditEntry(actor: nil, action: "operator.sign_in_refused", target: id, clientAddress: clientAddress), at: now)
            if let lockedUntil { return .locked(lockedUntil) }
            return .refused
        }
        switch verdict {
        case .signedIn(let account): return account
        case .refused: throw ConsoleError.signInRefused
        case .locked(let until): throw ConsoleError.locked(until: until)
        }
    }

    /// Counts a failed password (at sign-in or a confirmation) and returns the lock in force
    /// after it, if any. The count restarts once a lockout has run out; a lock in force is not
    /// extended, so guesses during it cannot keep the operator out. (SET reads the row as it was.)
    static func countFailure(_ db: any DatabaseConnection, operatorID: String, now: Date) throws -> Date? {
        let counted = try db.query(
            """
            UPDATE console_operators SET
              failed_attempts = CASE WHEN locked_until IS NOT NULL AND locked_until <= ? THEN 1 ELSE failed_attempts + 1 END,
              locked_until = CASE
                WHEN locked_until IS NOT NULL AND locked_until > ? THEN locked_until
                WHEN (CASE WHEN locked_until IS NOT NULL AND locked_until <= ? THEN 1 ELSE failed_attempts + 1 END) >= ? THEN ?
                ELSE NULL END
            WHERE id = ? RETURNING locked_until
            """,
            [now.sqlValue, now.sqlValue, now.sqlValue, .integer(Int64(lockoutFailures)), now.addingTimeInterval(lockout).sqlValue, .text(operatorID)]).first
        guard let until: Date = try counted?.get("locked_until"), now < until else { return nil }
        return until
    }

    /// An email as operators have one: printable ASCII, one `@` between non-empty parts, at most 254 bytes.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return (3...254).contains(text.utf8.count) && text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) && parts.count == 2
            && !parts[0].isEmpty && parts[1].contains(".")
    }

    /// The TOTP step `code` matches now for the operator of `row`; nil when it matches none.
    func totpStep(_ row: Row, code: String, now: Date) throws -> Int64? {
        try secrets.open(row.get("totp_secret"), context: Self.sealContext(row.get("id"))).flatMap(Base32.decode)
            .flatMap { TOTP(secret: $0).matchingStep(code, at: now) }
    }

    /// Uses a TOTP step: true once per step and operator, never while a lock is in force.
    static func spendTOTPStep(_ db: any DatabaseConnection, operatorID: String, step: Int64, now: Date) throws -> Bool {
        try db.execute(
            """
            UPDATE console_operators SET totp_last_step = ?
            WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?) AND (locked_until IS NULL OR locked_until <= ?)
            """,
            step, operatorID, step, now) == 1
    }

    /// Binds a sealed TOTP secret to its operator's row.
    static func sealContext(_ id: String) -> String { "console-operator-totp\n" + id }

}
