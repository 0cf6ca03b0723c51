import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseFormats

extension AccountsEngine {
    /// The algorithms offered, most preferred first: ES256, EdDSA, RS256.
    public static let passkeyAlgorithms = [COSEKey.es256, COSEKey.eddsa, COSEKey.rs256]
    /// How long a challenge may be answered.
    public static let passkeyChallengeLifetime: TimeInterval = 5 * 60
    /// The most passkeys one account may hold.
    public static let maxPasskeysPerAccount = 20

    /// Options for a signed-in account to make a passkey: a fresh challenge kept (by its hash)
    /// for this account and this ceremony, the account's random user handle (made on first
    /// use), and its passkeys already registered, excluded.
    public func passkeyCreationOptions(_ principal: SessionPrincipal) async throws -> PasskeyCreationOptions {
        let challenge = environment.random.bytes(32)
        let handle = Base64URL.encode(environment.random.bytes(32))
        let now = environment.clock.now
        let expires = now.addingTimeInterval(Self.passkeyChallengeLifetime)
        return try await database.write { db in
            guard let config = try Self.passkeyConfig(db, tenantID: principal.tenantId), config.enabled else { throw PasskeyError.notEnabled }
            try Self.requireRecentSignIn(db, principal, now: now)
            // The handle is made once: a request at the same moment finds the one that won.
            guard let account = try db.query(
                """
                UPDATE accounts SET passkey_user_handle = COALESCE(passkey_user_handle, ?) WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL
                RETURNING phone, email, passkey_user_handle
                """,
                [.text(handle), .text(principal.accountId), .text(principal.tenantId)]).first
            else { throw SessionError(.sessionNotFound) }
            let userHandle: String? = try account.get("passkey_user_handle")
            let excluded: [[UInt8]] = try db.query(
                "SELECT credential_id FROM passkey_credentials WHERE tenant_id = ? AND account_id = ?", principal.tenantId, principal.accountId
            ).compactMap { Base64URL.decode(try $0.get("credential_id") as String) }
            try Self.keepChallenge(db, challenge, tenantID: principal.tenantId, purpose: "create", accountID: principal.accountId, expires: expires)
            let phone: String? = try account.get("phone")
            let email: String? = try account.get("email")
            return PasskeyCreationOptions(
                challenge: challenge, rpID: config.rpID, rpName: config.rpName, userID: Base64URL.decode(userHandle!) ?? [],
                userName: email ?? phone.map { "+" + $0 } ?? principal.accountId, algorithms: Self.passkeyAlgorithms, excludedCredentials: excluded,
                expiresAt: expires)
        }
    }

    /// Checks a registration (WebAuthn §7.1) against the challenge it answers and stores the
    /// passkey under `name`. The challenge is spent whatever the verdict, in the transaction
    /// that decides, so it can be answered once.
    public func registerPasskey(_ principal: SessionPrincipal, response: WebAuthnRelyingParty.Registration, name: String) async throws -> Passkey {
        let cleanName = try Self.passkeyName(name)
        let challenge = (try? ClientData(response.clientDataJSON))?.challenge ?? []
        let now = environment.clock.now
        let verdict: Verdict
        do {
            verdict = try await register(principal, response: response, name: cleanName, challenge: challenge, now: now)
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            // The same credential registered at the same moment: the other one won.
            throw PasskeyError.credentialAlreadyRegistered
        }
        switch verdict {
        case .stored(let passkey): return passkey
        case .refused(let error): throw error
        }
    }

    private enum Verdict: Sendable { case stored(Passkey), refused(PasskeyError) }

    /// The ceremony is checked before the transaction (its crypto holds no lock); the
    /// transaction then spends the challenge, whatever the verdict, and stores the passkey.
    private func register(_ principal: SessionPrincipal, response: WebAuthnRelyingParty.Registration, name cleanName: String, challenge: [UInt8], now: Date)
        async throws -> Verdict
    {
        guard let config = try await passkeyConfig(tenantID: principal.tenantId), config.enabled else { return .refused(.notEnabled) }
        let checked = Result { () throws(WebAuthnError) -> WebAuthnRelyingParty.NewCredential in
            try WebAuthnRelyingParty(id: config.rpID, origins: Set(config.origins))
                .verifyRegistration(response, challenge: challenge, algorithms: Set(Self.passkeyAlgorithms))
        }
        return try await database.write { db in
            // The relying party checked against must still be the tenant's.
            guard try Self.passkeyConfig(db, tenantID: principal.tenantId).map({ $0.enabled && $0.rpID == config.rpID && $0.origins == config.origins }) == true
            else { return .refused(.notEnabled) }
            guard try Self.isRecentSignIn(db, principal, now: now) else { return .refused(.recentSignInRequired) }
            guard let spent = try Self.spendChallenge(db, challenge, tenantID: principal.tenantId, purpose: "create", now: now),
                spent.accountID == principal.accountId
            else { return .refused(.challengeInvalid) }
            let credential: WebAuthnRelyingParty.NewCredential
            switch checked {
            case .success(let made): credential = made
            case .failure(let error): return .refused(.ceremony(error))
            }
            let id = Base64URL.encode(credential.id)
            if try db.queryOne("SELECT account_id FROM passkey_credentials WHERE tenant_id = ? AND credential_id = ?", principal.tenantId, id) != nil {
                return .refused(.credentialAlreadyRegistered)
            }
            // The account's row first: registrations at once count one after the other.
            _ = try db.query("SELECT id FROM accounts WHERE id = ?" + db.dialect.forUpdate, [.text(principal.accountId)])
            let held: Int = try db.queryOne(
                "SELECT COUNT(*) AS n FROM passkey_credentials WHERE tenant_id = ? AND account_id = ?", principal.tenantId, principal.accountId)?.get("n") ?? 0
            guard held < Self.maxPasskeysPerAccount else { return .refused(.tooManyPasskeys) }
            try db.execute(
                """
                INSERT INTO passkey_credentials (tenant_id, credential_id, account_id, public_key, algorithm, sign_count, backup_eligible, backed_up,
                  aaguid, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(principal.tenantId), .text(id), .text(principal.accountId), .blob(credential.publicKeyBytes),
                 .integer(Int64(credential.publicKey.algorithm)), .integer(Int64(credential.signCount)), .boolean(credential.backupEligible),
                 .boolean(credential.backedUp), .text(credential.aaguid.hexString), .text(cleanName), now.sqlValue])
            return .stored(Passkey(
                id: id, name: cleanName, algorithm: credential.publicKey.algorithm, backedUp: credential.backedUp, createdAt: now, lastUsedAt: nil))
        }
    }

    /// Registering a passkey gives lasting access, so it takes a session started in the last
    /// ten minutes, as deleting one does: a stolen session alone cannot plant a passkey.
    static func requireRecentSignIn(_ db: any DatabaseConnection, _ principal: SessionPrincipal, now: Date) throws {
        guard try isRecentSignIn(db, principal, now: now) else { throw PasskeyError.recentSignInRequired }
    }

    static func isRecentSignIn(_ db: any DatabaseConnection, _ principal: SessionPrincipal, now: Date) throws -> Bool {
        guard let session = try db.queryOne("SELECT created_at FROM account_sessions WHERE id = ? AND account_id = ?", principal.sessionId, principal.accountId)
        else { return false }
        return now.timeIntervalSince(try session.get("created_at") as Date) <= Self.passkeyDeletionWindow
    }

    static func keepChallenge(_ db: any DatabaseConnection, _ challenge: [UInt8], tenantID: String, purpose: String, accountID: String?, expires: Date) throws {
        try db.execute(
            "INSERT INTO passkey_challenges (challenge_hash, tenant_id, purpose, account_id, expires_at) VALUES (?, ?, ?, ?, ?)",
            [.text(SHA256.hash(challenge).hexString), .text(tenantID), .text(purpose), accountID.sqlValue, expires.sqlValue])
    }

    /// A challenge spent: the account it was given for, if any.
    struct SpentChallenge: Sendable {
        let accountID: String?
    }

    /// Spends the challenge if it is live and for this tenant and ceremony; nil otherwise.
    /// Spent once: a second answer finds it consumed.
    static func spendChallenge(_ db: any DatabaseConnection, _ challenge: [UInt8], tenantID: String, purpose: String, now: Date) throws -> SpentChallenge? {
        guard challenge.count == 32 else { return nil }
        let rows = try db.query(
            """
            UPDATE passkey_challenges SET consumed_at = ?
            WHERE challenge_hash = ? AND consumed_at IS NULL AND tenant_id = ? AND purpose = ? AND expires_at > ?
            RETURNING account_id
            """,
            [now.sqlValue, .text(SHA256.hash(challenge).hexString), .text(tenantID), .text(purpose), now.sqlValue])
        // Only a live challenge of this tenant and ceremony is spent: one sent elsewhere stays for its own answer.
        guard let row = rows.first else { return nil }
        return SpentChallenge(accountID: try row.get("account_id"))
    }

    static func passkeyName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(name.count), name.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control && $0.properties.generalCategory != .format })
        else { throw PasskeyError.nameInvalid }
        return name
    }
}
