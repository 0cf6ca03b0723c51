import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseFormats

extension AccountsEngine {
    /// How recent a sign-in must be to add or delete a passkey: a stolen session alone can
    /// neither plant one nor take the owner's away (the account keeps OTP as its recovery).
    public static let passkeyDeletionWindow: TimeInterval = 10 * 60

    /// The account's passkeys, oldest first.
    public func passkeys(_ principal: SessionPrincipal) async throws -> [Passkey] {
        try await passkeys(tenantID: principal.tenantId, accountID: principal.accountId)
    }

    /// An account's passkeys as an operator sees them (the console), oldest first.
    public func passkeys(tenantID: String, accountID: String) async throws -> [Passkey] {
        try await database.read { db in
            try db.query(
                "SELECT * FROM passkey_credentials WHERE tenant_id = ? AND account_id = ? ORDER BY created_at, credential_id", tenantID, accountID
            ).map(Self.passkey)
        }
    }

    public func renamePasskey(_ principal: SessionPrincipal, id: String, name: String) async throws -> Passkey {
        guard Self.isCredentialID(id) else { throw PasskeyError.credentialUnknown }
        let cleanName = try Self.passkeyName(name)
        return try await database.write { db in
            let changed = try db.execute(
                "UPDATE passkey_credentials SET name = ? WHERE tenant_id = ? AND account_id = ? AND credential_id = ?",
                cleanName, principal.tenantId, principal.accountId, id)
            guard changed == 1, let row = try db.queryOne(
                "SELECT * FROM passkey_credentials WHERE tenant_id = ? AND credential_id = ?", principal.tenantId, id)
            else { throw PasskeyError.credentialUnknown }
            return try Self.passkey(row)
        }
    }

    /// Deletes one of the account's passkeys, from a session signed in within the last ten
    /// minutes (a refresh does not count: the session's start does).
    public func deletePasskey(_ principal: SessionPrincipal, id: String) async throws {
        guard Self.isCredentialID(id) else { throw PasskeyError.credentialUnknown }
        let now = environment.clock.now
        try await database.write { db in
            try Self.requireRecentSignIn(db, principal, now: now)
            let removed = try db.execute(
                "DELETE FROM passkey_credentials WHERE tenant_id = ? AND account_id = ? AND credential_id = ?", principal.tenantId, principal.accountId, id)
            guard removed == 1 else { throw PasskeyError.credentialUnknown }
        }
    }

    /// Challenges past their lifetime, answered or not, are deleted.
    public func sweepPasskeyChallenges() async throws -> Int {
        let cutoff = environment.clock.now.addingTimeInterval(-Self.passkeyChallengeLifetime)
        return try await database.write { db in try db.execute("DELETE FROM passkey_challenges WHERE expires_at < ?", cutoff) }
    }

    /// A credential id as stored: base64url of at most 1023 bytes (nothing else is one, and a
    /// NUL would reach PostgreSQL, which refuses it in text).
    static func isCredentialID(_ id: String) -> Bool {
        (1...1400).contains(id.utf8.count) && Base64URL.decode(id) != nil
    }

    static func passkey(_ row: Row) throws -> Passkey {
        Passkey(
            id: try row.get("credential_id"), name: try row.get("name"), algorithm: try row.get("algorithm"), backedUp: try row.get("backed_up"),
            createdAt: try row.get("created_at"), lastUsedAt: try row.get("last_used_at"), counterRegressedAt: try row.get("counter_regressed_at"))
    }
}
