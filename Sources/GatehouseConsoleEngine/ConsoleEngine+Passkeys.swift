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

/// Operators' passkeys, a second factor beside TOTP: made from a confirmed session, used at
/// sign-in after the password, each challenge kept by its hash for one answer.
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

    /// Checks the browser's registration (its crypto before the transaction) and keeps the passkey.
    public func registerPasskey(_ session: ConsoleSession, response: WebAuthnRelyingParty.Registration, name raw: String, party: WebAuthnRelyingParty,
                                clientAddress: String) async throws -> ConsolePasskey {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(name.count), name.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control && $0.properties.generalCategory != .format })
        else { throw ConsoleError.passkeyRefused }
        let challenge = (try? ClientData(response.clientDataJSON))?.challenge ?? []
        let checked = try? party.verifyRegistration(response, challenge: challenge, algorithms: Self.passkeyAlgorithms)
        let (now, auditID) = (environment.clock.now, environment.ids.next().lowercased)
        let stored: ConsolePasskey? = try await database.write { db in
            guard try Self.spendPasskeyChallenge(db, challenge, purpose: "create", now: now) == .some(session.account.id), let credential = checked else { return nil }
            let id = Base64URL.encode(credential.id)
            guard try db.queryOne("SELECT operator_id FROM console_passkeys WHERE credential_id = ?", id) == nil else { return nil }
            try db.execute(
                "INSERT INTO console_passkeys (credential_id, operator_id, public_key, sign_count, backup_eligible, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [.text(id), .text(session.account.id), .blob(credential.publicKeyBytes), .integer(Int64(credential.signCount)),
                 .boolean(credential.backupEligible), .text(name), now.sqlValue])
            try Self.audit(db, id: auditID, AuditEntry(actor: session.account.id, action: "operator.passkey_add", target: id, clientAddress: clientAddress, detail: name), at: now)
            return ConsolePasskey(id: id, name: name, createdAt: now, lastUsedAt: nil)
        }
        guard let stored else { throw ConsoleError.passkeyRefused }
        return stored
    }

    /// A challenge for a passkey sign-in (any operator's: the password says whose).
    public func passkeySignInChallenge() async throws -> [UInt8] {
        let (challenge, now) = (environment.random.bytes(32), environment.clock.now)
        try await database.write { db in
            try Self.keepPasskeyChallenge(db, challenge, operatorID: nil, purpose: "get", expires: now.addingTimeInterval(Self.passkeyChallengeLifetime))
        }
        return challenge
    }

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
    /// the counter on the locked row (a synced passkey's constant 0 passes), the last use.
    func passkeyHolds(_ assertion: WebAuthnRelyingParty.Assertion, party: WebAuthnRelyingParty, operatorID: String, now: Date) async throws
        -> @Sendable (any DatabaseConnection) throws -> Bool
    {
        let id = Base64URL.encode(assertion.rawID)
        let challenge = (try? ClientData(assertion.clientDataJSON))?.challenge ?? []
        let stored = try await database.read { db in
            try db.queryOne("SELECT public_key FROM console_passkeys WHERE credential_id = ? AND operator_id = ?", id, operatorID)
        }
        let verified: WebAuthnRelyingParty.Verified? = try stored.flatMap { row in
            guard let key = try? COSEKey(CBORReader.decode(try row.get("public_key") as [UInt8])) else { return nil }
            return try? party.verifyAssertion(assertion, challenge: challenge, publicKey: key)
        }
        return { db in
            guard try Self.spendPasskeyChallenge(db, challenge, purpose: "get", now: now) != nil, let verified,
                let row = try db.queryOne("SELECT sign_count, backup_eligible FROM console_passkeys WHERE credential_id = ? AND operator_id = ?" + db.dialect.forUpdate, id, operatorID),
                try row.get("backup_eligible") as Bool == verified.backupEligible,
                WebAuthnRelyingParty.signCountAcceptable(stored: UInt32(clamping: try row.get("sign_count") as Int64), received: verified.signCount)
            else { return false }
            try db.execute("UPDATE console_passkeys SET sign_count = ?, last_used_at = ? WHERE credential_id = ?", [.integer(Int64(verified.signCount)), now.sqlValue, .text(id)])
            return true
        }
    }

    /// Challenges past their lifetime, answered or not, are deleted.
    public func sweepPasskeyChallenges() async throws -> Int {
        let cutoff = environment.clock.now.addingTimeInterval(-Self.passkeyChallengeLifetime)
        return try await database.write { db in try db.execute("DELETE FROM console_passkey_challenges WHERE expires_at < ?", cutoff) }
    }
}
