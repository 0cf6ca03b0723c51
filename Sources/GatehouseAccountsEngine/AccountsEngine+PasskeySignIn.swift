import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseFormats

extension AccountsEngine {
    /// Options to sign in with a passkey: discoverable (no identifier: the passkey chosen names
    /// the account) or by account (its phone or email: its passkeys listed). A challenge is
    /// kept either way; an identifier of no account (or of one without passkeys) gets an id
    /// that names nothing, so that the answer tells no one who has an account.
    public func passkeyRequestOptions(tenantID: String, identifier: (channel: SignInChannel, value: String)?) async throws -> PasskeyRequestOptions {
        let parsed = try identifier.map { try Identifier($0.channel, $0.value) }
        let challenge = environment.random.bytes(32)
        let (now, random) = (environment.clock.now, environment.random)
        let expires = now.addingTimeInterval(Self.passkeyChallengeLifetime)
        return try await database.write { db in
            guard let config = try Self.passkeyConfig(db, tenantID: tenantID), config.enabled else { throw PasskeyError.notEnabled }
            var accountID: String?
            var allowed: [[UInt8]] = []
            if let parsed {
                if let row = try Self.find(db, tenantID: tenantID, parsed) {
                    accountID = try row.get("id")
                    allowed = try db.query(
                        "SELECT credential_id FROM passkey_credentials WHERE tenant_id = ? AND account_id = ? ORDER BY created_at", tenantID, accountID!
                    ).compactMap { Base64URL.decode(try $0.get("credential_id") as String) }
                }
                // No account, or no passkey: a credential id that names nothing, the same for the
                // same identifier on every node, so the answer does not tell who has an account
                // (or passkeys). It is keyed by the tenant's token key, which no caller holds.
                if allowed.isEmpty {
                    let key = try SigningKeys.current(db, tenantID: tenantID, now: now, random: random)
                    allowed = [Array(HMAC.sha256(key: key.secret, message: Array("passkey-decoy\n\(tenantID)\n\(parsed.value)".utf8)).prefix(16))]
                }
            }
            try Self.keepChallenge(db, challenge, tenantID: tenantID, purpose: "get", accountID: accountID, expires: expires)
            return PasskeyRequestOptions(challenge: challenge, rpID: config.rpID, allowedCredentials: allowed, expiresAt: expires)
        }
    }

    /// Checks an assertion (WebAuthn §7.2) and starts a session as a code's sign-in does (the
    /// same device limit and rotation). The signature is checked before the transaction, against
    /// the stored key (its crypto holds no lock); the transaction then spends the challenge, locks
    /// the credential, checks its owner and user handle and the counter rules on the locked row
    /// (a synced passkey's constant 0 passes; a counter in use that does not go up is refused
    /// and flagged, the stored counter unchanged), writes the backup state and last use, and
    /// makes the session.
    public func signInWithPasskey(tenantID: String, response: WebAuthnRelyingParty.Assertion, device: DeviceInfo) async throws -> TokenPair {
        let challenge = (try? ClientData(response.clientDataJSON))?.challenge ?? []
        let now = environment.clock.now
        let sessions = self.sessions
        let id = Base64URL.encode(response.rawID)
        let (config, stored) = try await database.read { db in
            (try Self.passkeyConfig(db, tenantID: tenantID),
             try db.queryOne("SELECT public_key FROM passkey_credentials WHERE tenant_id = ? AND credential_id = ?", tenantID, id))
        }
        guard let config, config.enabled else { throw PasskeyError.notEnabled }
        let checked: Result<WebAuthnRelyingParty.Verified, PasskeyError>
        if let keyBytes: [UInt8] = try stored?.get("public_key"), let key = try? COSEKey(CBORReader.decode(keyBytes)) {
            do {
                checked = .success(try WebAuthnRelyingParty(id: config.rpID, origins: Set(config.origins)).verifyAssertion(response, challenge: challenge, publicKey: key))
            } catch let error as WebAuthnError {
                checked = .failure(.ceremony(error))
            }
        } else {
            checked = .failure(.credentialUnknown)
        }
        enum Verdict: Sendable { case signedIn(StartedSession), refused(PasskeyError) }
        let verdict: Verdict = try await database.write { db in
            guard try Self.passkeyConfig(db, tenantID: tenantID).map({ $0.enabled && $0.rpID == config.rpID && $0.origins == config.origins }) == true
            else { return .refused(.notEnabled) }
            guard let spent = try Self.spendChallenge(db, challenge, tenantID: tenantID, purpose: "get", now: now) else { return .refused(.challengeInvalid) }
            let verified: WebAuthnRelyingParty.Verified
            switch checked {
            case .success(let value): verified = value
            case .failure(let error): return .refused(error)
            }
            guard let row = try db.queryOne(
                """
                SELECT c.*, a.passkey_user_handle FROM passkey_credentials c JOIN accounts a ON a.id = c.account_id
                WHERE c.tenant_id = ? AND c.credential_id = ? AND a.deleted_at IS NULL
                """ + db.dialect.forUpdate, tenantID, id),
                try row.get("public_key") as [UInt8] == (try stored?.get("public_key") as [UInt8]?)
            else { return .refused(.credentialUnknown) }
            let owner: String = try row.get("account_id")
            if let wanted = spent.accountID, wanted != owner { return .refused(.credentialUnknown) }
            let handle: String? = try row.get("passkey_user_handle")
            // A discoverable sign-in names its account by the user handle; by account, a handle
            // given must still be the owner's. An empty handle is no handle (some clients send "").
            if let given = response.userHandle, !given.isEmpty {
                guard let handle, let storedHandle = Base64URL.decode(handle), constantTimeEquals(given, storedHandle) else { return .refused(.userHandleMismatch) }
            } else if spent.accountID == nil {
                return .refused(.userHandleMismatch)
            }
            guard verified.backupEligible == (try row.get("backup_eligible") as Bool) else { return .refused(.backupEligibilityChanged) }
            let count = UInt32(clamping: try row.get("sign_count") as Int64)
            if !WebAuthnRelyingParty.signCountAcceptable(stored: count, received: verified.signCount) {
                try db.execute("UPDATE passkey_credentials SET counter_regressed_at = ? WHERE tenant_id = ? AND credential_id = ?", now, tenantID, id)
                return .refused(.counterRegressed)
            }
            try db.execute(
                "UPDATE passkey_credentials SET sign_count = ?, backed_up = ?, last_used_at = ? WHERE tenant_id = ? AND credential_id = ?",
                [.integer(Int64(verified.signCount)), .boolean(verified.backedUp), now.sqlValue, .text(tenantID), .text(id)])
            return .signedIn(try sessions.signIn(db, tenantID: tenantID, accountID: owner, device: device, now: now))
        }
        switch verdict {
        case .signedIn(let started):
            signIns.increment(["tenant": tenantID, "method": "passkey"])
            return started.committed(to: sessions)
        case .refused(let error): throw error
        }
    }
}
