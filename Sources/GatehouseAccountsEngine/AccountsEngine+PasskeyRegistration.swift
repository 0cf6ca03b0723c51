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
            guard let account = try db.queryOne(
                "SELECT phone, email, passkey_user_handle FROM accounts WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL",
                principal.accountId, principal.tenantId)
            else { throw SessionError(.sessionNotFound) }
            var userHandle: String? = try account.get("passkey_user_handle")
            if userHandle == nil {
                try db.execute("UPDATE accounts SET passkey_user_handle = ? WHERE id = ? AND passkey_user_handle IS NULL", handle, principal.accountId)
                userHandle = handle
            }
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
        enum Verdict: Sendable { case stored(Passkey), refused(PasskeyError) }
        let verdict: Verdict = try await database.write { db in
            guard let config = try Self.passkeyConfig(db, tenantID: principal.tenantId), config.enabled else { return .refused(.notEnabled) }
            guard let spent = try Self.spendChallenge(db, challenge, tenantID: principal.tenantId, purpose: "create", now: now),
                spent.accountID == principal.accountId
            else { return .refused(.challengeInvalid) }
            let party = WebAuthnRelyingParty(id: config.rpID, origins: Set(config.origins))
            let credential: WebAuthnRelyingParty.NewCredential
            do {
                credential = try party.verifyRegistration(response, challenge: challenge, algorithms: Set(Self.passkeyAlgorithms))
            } catch let error as WebAuthnError {
                return .refused(.ceremony(error))
            }
            let id = Base64URL.encode(credential.id)
            if try db.queryOne("SELECT account_id FROM passkey_credentials WHERE tenant_id = ? AND credential_id = ?", principal.tenantId, id) != nil {
                return .refused(.credentialAlreadyRegistered)
            }
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
        switch verdict {
        case .stored(let passkey): return passkey
        case .refused(let error): throw error
        }
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
            UPDATE passkey_challenges SET consumed_at = ? WHERE challenge_hash = ? AND consumed_at IS NULL
            RETURNING tenant_id, purpose, account_id, expires_at
            """,
            [now.sqlValue, .text(SHA256.hash(challenge).hexString)])
        guard let row = rows.first, try row.get("tenant_id") == tenantID, try row.get("purpose") == purpose, now < (try row.get("expires_at") as Date) else {
            return nil
        }
        return SpentChallenge(accountID: try row.get("account_id"))
    }

    static func passkeyName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(name.count), name.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control && $0.properties.generalCategory != .format })
        else { throw PasskeyError.nameInvalid }
        return name
    }
}
