import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseFormats

/// An operator's passkey as the console lists it: never its key.
public struct ConsolePasskey: Sendable, Equatable {
    public let id: String
    public let name: String
    public let createdAt: Date
    public let lastUsedAt: Date?
}

/// What the browser needs to make an operator's passkey.
public struct ConsolePasskeyCreation: Sendable, Equatable {
    public let challenge: [UInt8]
    public let userID: [UInt8]
    public let userName: String
    public let excluded: [[UInt8]]
}

/// Operators' passkeys, a second factor beside TOTP: made from a confirmed session with a
/// current code, used at sign-in after the password, each challenge answered once (a
/// registration's kept by its hash; a sign-in's signed, and kept by its hash once answered).
extension ConsoleEngine {
    public static let passkeyChallengeLifetime: TimeInterval = 5 * 60
    static let passkeyAlgorithms: Set<Int> = [COSEKey.es256, COSEKey.eddsa, COSEKey.rs256]

    /// Options for a passkey of the session's operator; the password must have been typed in
    /// the last few minutes (a passkey is a way in).
    public func passkeyCreation(_ session: ConsoleSession) async throws -> ConsolePasskeyCreation {
        guard session.isConfirmed(at: environment.clock.now) else { throw ConsoleError.confirmationNeeded }
        let (challenge, handle, now) = (environment.random.bytes(32), Base64URL.encode(environment.random.bytes(32)), environment.clock.now)
        return try await database.write { db in
            guard let row = try db.query(
                "UPDATE console_operators SET passkey_user_handle = COALESCE(passkey_user_handle, ?) WHERE id = ? RETURNING passkey_user_handle",
                [.text(handle), .text(session.account.id)]).first
            else { throw ConsoleError.notFound }
            let excluded = try db.query("SELECT credential_id FROM console_passkeys WHERE operator_id = ?", session.account.id)
                .compactMap { Base64URL.decode(try $0.get("credential_id") as String) }
            try Self.keepPasskeyChallenge(db, challenge, operatorID: session.account.id, purpose: "create", expires: now.addingTimeInterval(Self.passkeyChallengeLifetime))
            return ConsolePasskeyCreation(
                challenge: challenge, userID: Base64URL.decode(try row.get("passkey_user_handle") as String) ?? [], userName: session.account.email, excluded: excluded)
        }
    }

    /// Checks the browser's registration (its crypto before the transaction) and keeps the
    /// passkey. A passkey is a new way in, so the authenticator's current code is asked too
    /// (a stolen session with the password is not enough); a wrong code counts as a failed
    /// sign-in toward the lockout.
    public func registerPasskey(_ session: ConsoleSession, response: WebAuthnRelyingParty.Registration, name raw: String, code: String,
                                party: WebAuthnRelyingParty, clientAddress: String) async throws -> ConsolePasskey {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(name.count), name.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control && $0.properties.generalCategory != .format })
        else { throw ConsoleError.passkeyRefused }
        let (now, auditID, operatorID) = (environment.clock.now, environment.ids.next().lowercased, session.account.id)
        guard session.isConfirmed(at: now) else { throw ConsoleError.confirmationNeeded }
        let challenge = (try? ClientData(response.clientDataJSON))?.challenge ?? []
        let checked = try? party.verifyRegistration(response, challenge: challenge, algorithms: Self.passkeyAlgorithms)
        guard let row = try await database.read({ db in try db.queryOne("SELECT * FROM console_operators WHERE id = ?", operatorID) })
        else { throw ConsoleError.notFound }
        let step = try totpStep(row, code: code, now: now)
        enum Verdict: Sendable { case added(ConsolePasskey), codeRefused, refused }
        let verdict: Verdict = try await database.write { db in
            // The challenge is spent first and whatever follows: it answers once.
            let spent = try Self.spendPasskeyChallenge(db, challenge, purpose: "create", now: now) == .some(operatorID)
            guard let step, try Self.spendTOTPStep(db, operatorID: operatorID, step: step, now: now) else {
                _ = try Self.countFailure(db, operatorID: operatorID, now: now)
                return .codeRefused
            }
            guard spent, let credential = checked else { return .refused }
            let id = Base64URL.encode(credential.id)
            // A credential id is anyone's once: a concurrent duplicate inserts nothing.
            guard try db.execute(
                """
                INSERT INTO console_passkeys (credential_id, operator_id, public_key, sign_count, backup_eligible, name, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (credential_id) DO NOTHING
                """,
                [.text(id), .text(operatorID), .blob(credential.publicKeyBytes), .integer(Int64(credential.signCount)),
                 .boolean(credential.backupEligible), .text(name), now.sqlValue]) == 1
            else { return .refused }
            try Self.audit(db, id: auditID, AuditEntry(actor: operatorID, action: "operator.passkey_add", target: id, clientAddress: clientAddress, detail: name), at: now)
            return .added(ConsolePasskey(id: id, name: name, createdAt: now, lastUsedAt: nil))
        }
        switch verdict {
        case .added(let passkey): return passkey
        case .codeRefused: throw ConsoleError.codeRefused
        case .refused: throw ConsoleError.passkeyRefused
        }
    }

    /// A challenge for a passkey sign-in (any operator's: the password says whose), kept by no
    /// one: a nonce and its expiry under a MAC of the console's key, so showing the sign-in
    /// page writes nothing; the answer that uses it records it as spent.
    public func passkeySignInChallenge() -> [UInt8] {
        let expires = Int64(environment.clock.now.addingTimeInterval(Self.passkeyChallengeLifetime).timeIntervalSince1970)
        let body = environment.random.bytes(16) + withUnsafeBytes(of: expires.bigEndian) { Array($0) }
        return body + HMAC.sha256(key: signInChallengeKey, message: body)
    }

    /// When a sign-in challenge ends, if this console made it and it is still live.
    func signInChallengeExpiry(_ challenge: [UInt8], now: Date) -> Date? {
        guard challenge.count == 56 else { return nil }
        let body = Array(challenge[0..<24])
        guard constantTimeEquals(HMAC.sha256(key: signInChallengeKey, message: body), challenge[24...]) else { return nil }
        let expires = Date(timeIntervalSince1970: TimeInterval(body[16...].reduce(Int64(0)) { $0 << 8 | Int64($1) }))
        return expires > now ? expires : nil
    }

    var signInChallengeKey: [UInt8] { secrets.subkey("console passkey sign-in challenge") }

    public func passkeys(operatorID: String) async throws -> [ConsolePasskey] {
        try await database.read { db in
            try db.query("SELECT * FROM console_passkeys WHERE operator_id = ? ORDER BY created_at, credential_id", operatorID).map { row in
                ConsolePasskey(id: try row.get("credential_id"), name: try row.get("name"), createdAt: try row.get("created_at"), lastUsedAt: try row.get("last_used_at"))
            }
        }
    }

    public func removePasskey(_ session: ConsoleSession, id: String, clientAddress: String) async throws {
        guard session.isConfirmed(at: environment.clock.now) else { throw ConsoleError.confirmationNeeded }
        let (now, auditID) = (environment.clock.now, environment.ids.next().lowercased)
        let removed = try await database.write { db in
            let removed = try db.execute("DELETE FROM console_passkeys WHERE credential_id = ? AND operator_id = ?", id, session.account.id)
            if removed == 1 {
                try Self.audit(db, id: auditID, AuditEntry(actor: session.account.id, action: "operator.passkey_remove", target: id, clientAddress: clientAddress), at: now)
            }
            return removed
        }
        guard removed == 1 else { throw ConsoleError.notFound }
    }

    static func keepPasskeyChallenge(_ db: any DatabaseConnection, _ challenge: [UInt8], operatorID: String?, purpose: String, expires: Date) throws {
        try db.execute(
            "INSERT INTO console_passkey_challenges (challenge_hash, operator_id, purpose, expires_at) VALUES (?, ?, ?, ?)",
            [.text(SHA256.hash(challenge).hexString), operatorID.sqlValue, .text(purpose), expires.sqlValue])
    }

    /// Spends a live challenge of this ceremony; nil when there is none, else the operator it
    /// was made for (nil inside for a sign-in's).
    static func spendPasskeyChallenge(_ db: any DatabaseConnection, _ challenge: [UInt8], purpose: String, now: Date) throws -> String?? {
        guard challenge.count == 32 else { return nil }
        let rows = try db.query(
            """
            UPDATE console_passkey_challenges SET consumed_at = ? WHERE challenge_hash = ? AND consumed_at IS NULL AND purpose = ? AND expires_at > ?
            RETURNING operator_id
            """,
            [now.sqlValue, .text(SHA256.hash(challenge).hexString), .text(purpose), now.sqlValue])
        guard let row = rows.first else { return nil }
        return .some(try row.get("operator_id"))
    }

    /// Checks an assertion of one of the operator's passkeys, its signature before any
    /// transaction; returns the part decided in the sign-in's transaction: the challenge spent,
    /// the key and counter on the locked row (a synced passkey's constant 0 passes; a counter
    /// that goes back is refused and left as it was).
    func passkeyHolds(_ assertion: WebAuthnRelyingParty.Assertion, party: WebAuthnRelyingParty, operatorID: String, now: Date) async throws
        -> @Sendable (any DatabaseConnection) throws -> Bool
    {
        let id = Base64URL.encode(assertion.rawID)
        let challenge = (try? ClientData(assertion.clientDataJSON))?.challenge ?? []
        let expires = signInChallengeExpiry(challenge, now: now)
        let stored = try await database.read { db in
            try db.queryOne(
                """
                SELECT p.public_key, o.passkey_user_handle FROM console_passkeys p JOIN console_operators o ON o.id = p.operator_id
                WHERE p.credential_id = ? AND p.operator_id = ?
                """, id, operatorID)
        }
        let key: [UInt8]? = try stored?.get("public_key")
        // §7.2 step 6: a user handle, when the authenticator gives one, is the operator's.
        let handle: String? = try stored?.get("passkey_user_handle")
        let handleHolds = assertion.userHandle.map { given in given.isEmpty || handle.flatMap(Base64URL.decode).map { constantTimeEquals($0, given) } == true } ?? true
        let verified: WebAuthnRelyingParty.Verified? = key.flatMap { bytes in
            guard handleHolds, let cose = try? COSEKey(CBORReader.decode(bytes)) else { return nil }
            return try? party.verifyAssertion(assertion, challenge: challenge, publicKey: cose)
        }
        return { db in
            guard let expires, try Self.spendSignInChallenge(db, challenge, expires: expires, now: now), let verified, let key,
                let row = try db.queryOne(
                    "SELECT public_key, sign_count, backup_eligible FROM console_passkeys WHERE credential_id = ? AND operator_id = ?" + db.dialect.forUpdate, id, operatorID),
                constantTimeEquals(try row.get("public_key") as [UInt8], key),
                try row.get("backup_eligible") as Bool == verified.backupEligible,
                WebAuthnRelyingParty.signCountAcceptable(stored: UInt32(clamping: try row.get("sign_count") as Int64), received: verified.signCount)
            else { return false }
            try db.execute("UPDATE console_passkeys SET sign_count = ? WHERE credential_id = ?", [.integer(Int64(verified.signCount)), .text(id)])
            return true
        }
    }

    /// Records a sign-in challenge as answered: true the first time, false for a replay.
    static func spendSignInChallenge(_ db: any DatabaseConnection, _ challenge: [UInt8], expires: Date, now: Date) throws -> Bool {
        try db.execute(
            """
            INSERT INTO console_passkey_challenges (challenge_hash, operator_id, purpose, expires_at, consumed_at) VALUES (?, NULL, 'get', ?, ?)
            ON CONFLICT (challenge_hash) DO NOTHING
            """,
            [.text(SHA256.hash(challenge).hexString), expires.sqlValue, now.sqlValue]) == 1
    }

    /// Challenges past their lifetime, answered or not, are deleted (a sign-in's past its
    /// expiry is refused by its own signed expiry).
    public func sweepPasskeyChallenges() async throws -> Int {
        let cutoff = environment.clock.now.addingTimeInterval(-Self.passkeyChallengeLifetime)
        return try await database.write { db in try db.execute("DELETE FROM console_passkey_challenges WHERE expires_at < ?", cutoff) }
    }
}
