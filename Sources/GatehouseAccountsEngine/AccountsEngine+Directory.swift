import Foundation
import GatehouseCore
import GatehouseDatabase

/// An account as an operator looks it up.
public struct AccountSummary: Sendable, Equatable {
    public let id: String
    public let tenantId: String
    public let phone: String?
    public let email: String?
    public let name: String?
    public let status: String
    public let createdAt: Date
    public let deletedAt: Date?
}

extension AccountsEngine {
    /// A tenant's accounts whose id, phone or email is `query` (all, newest first, when it is
    /// empty), at most `limit`.
    public func searchAccounts(tenantID: String, query raw: String, limit: Int = 50) async throws -> [AccountSummary] {
        let query = raw.trimmingCharacters(in: .whitespaces)
        let bounded = Int64(min(max(limit, 1), 200))
        return try await database.read { db in
            if query.isEmpty {
                return try db.query("SELECT * FROM accounts WHERE tenant_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", [.text(tenantID), .integer(bounded)])
                    .map(AccountSummary.init(row:))
            }
            // Numbers are stored as their digits: `+1 416 555 0199` looks for `14165550199`. Whole
            // values only, never a prefix: a prefix search would spell out a masked number digit
            // by digit to anyone who may search.
            let digits = query.filter { $0.isNumber && $0.isASCII }
            let looksLikePhone = !digits.isEmpty && query.allSatisfy { $0.isNumber || " +-().".contains($0) }
            return try db.query(
                "SELECT * FROM accounts WHERE tenant_id = ? AND (id = ? OR phone = ? OR email = ?) ORDER BY created_at DESC, id DESC LIMIT ?",
                [.text(tenantID), .text(query.lowercased()), .text(looksLikePhone ? digits : query), .text(query.lowercased()), .integer(bounded)]
            ).map(AccountSummary.init(row:))
        }
    }

    /// One account of the tenant, deleted ones included; nil when there is none.
    public func account(tenantID: String, id: String) async throws -> AccountSummary? {
        try await database.read { db in
            try db.queryOne("SELECT * FROM accounts WHERE id = ? AND tenant_id = ?", id, tenantID).map(AccountSummary.init(row:))
        }
    }

    /// Deletes an account for an operator, as the account's own deletion does: its identity
    /// cleared, its sessions ended. False when there was no live account to delete.
    public func deleteAccount(tenantID: String, accountID: String) async throws -> Bool {
        let principal = SessionPrincipal(tenantId: tenantID, accountId: accountID, sessionId: "", status: "", generation: 0, platform: nil)
        return try await deleteAccountReporting(principal)
    }
}

extension AccountSummary {
    init(row: Row) throws {
        id = try row.get("id")
        tenantId = try row.get("tenant_id")
        phone = try row.get("phone")
        email = try row.get("email")
        name = try row.get("name")
        status = try row.get("status")
        createdAt = try row.get("created_at")
        deletedAt = try row.get("deleted_at")
    }
}
