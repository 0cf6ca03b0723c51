import Foundation
import GatehouseCore
import GatehouseDatabase

extension AccountsEngine {
    /// Moves a `CREATED` account to `ACTIVE` (idempotent) and returns a fresh pair whose
    /// access token carries the new status.
    public func activate(_ principal: SessionPrincipal) async throws -> TokenPair {
        try await database.write { db in
            try db.execute(
                "UPDATE accounts SET status = 'ACTIVE' WHERE id = ? AND tenant_id = ? AND status = 'CREATED' AND deleted_at IS NULL",
                principal.accountId, principal.tenantId)
        }
        return try await sessions.rotate(principal)
    }

    public func profile(_ principal: SessionPrincipal) async throws -> Profile {
        try await profile(principal, alongside: { _ in () }).0
    }

    /// The profile, and what `alongside` reads in the same read transaction (another engine's
    /// view of the account, such as its wallet): one transaction for the request, not two.
    public func profile<Other: Sendable>(
        _ principal: SessionPrincipal, alongside: @escaping @Sendable (any DatabaseConnection) throws -> Other
    ) async throws -> (Profile, Other) {
        let (row, other) = try await database.read { db in
            // Sent first, answered with what `alongside` waits for: one round trip for both.
            let account = try db.send(
                "SELECT * FROM accounts WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL", principal.accountId, principal.tenantId)
            let other = try alongside(db)
            return (try account.rows().first, other)
        }
        guard let row else { throw SessionError(.accountDeleted) }
        return (try Profile(row: row, wallet: ["WALLET": 0, "TRIAL": 0, "SUBSCRIPTION": 0]), other)
    }

    /// Changes the name and/or the IANA time zone.
    public func updateProfile(_ principal: SessionPrincipal, name: String?, timezone: String?) async throws -> Profile {
        let cleanName = try name.map(Self.validName)
        if let timezone, TimeZone(identifier: timezone) == nil || !timezone.contains("/") && timezone != "UTC" {
            throw AccountsError(.timezoneInvalid)
        }
        try await database.write { db in
            try db.execute(
                "UPDATE accounts SET name = COALESCE(?, name), timezone = COALESCE(?, timezone) WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL",
                [cleanName.sqlValue, timezone.sqlValue, .text(principal.accountId), .text(principal.tenantId)])
        }
        return try await profile(principal)
    }

    /// Deletes the account: every session ends, personal data is removed; the phone number
    /// or email can sign up again as a new, empty account.
    public func deleteAccount(_ principal: SessionPrincipal) async throws {
        _ = try await deleteAccountReporting(principal)
    }

    /// Deletes the account; false when it was deleted already (by another request at once).
    func deleteAccountReporting(_ principal: SessionPrincipal) async throws -> Bool {
        let now = environment.clock.now
        let deleted = try await database.writeChanging { db -> Bool in
            // Deleted before: nothing to keep (and nothing joined to it, such as an audit row).
            guard try db.execute(
                """
                UPDATE accounts SET status = 'DELETED', phone = NULL, email = NULL, name = NULL, timezone = NULL, country = NULL,
                  deleted_at = ?, passkey_user_handle = NULL WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL
                """, now, principal.accountId, principal.tenantId) == 1 else { throw NothingChanged(false) }
            // Its passkeys go with it: none can sign in to a deleted account, or name it.
            try db.execute("DELETE FROM passkey_credentials WHERE tenant_id = ? AND account_id = ?", principal.tenantId, principal.accountId)
            return true
        }
        try await sessions.signOutEverywhere(accountID: principal.accountId, reason: .accountDeleted)
        return deleted
    }
}

/// Who an account is: whether it was deleted, and its phone and email.
struct AccountIdentity: Sendable, Equatable {
    let deleted: Bool
    let phone: String?
    let email: String?
}
