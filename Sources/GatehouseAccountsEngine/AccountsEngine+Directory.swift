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
    /// A tenant's accounts whose id, phone or email starts with `query` (all, newest first,
    /// when it is empty), at most `limit`.
    public func searchAccounts(tenantID: String, query raw: String, limit: Int = 50) async throws -> [AccountSummary] {
        let query = raw.trimmingCharacters(in: .whitespaces)
        let bounded = Int64(min(max(limit, 1), 200))
        return try await database.read { db in
            if query.isEmpty {
                return try db.query("SELECT * FROM accounts WHERE tenant_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", [.text(tenantID), .integer(bounded)])
                    .map(AccountSummary.init(row:))
            }
            // Numbers are stored as their digits: `+1 416 555` looks for `1416555`.
            let digits = query.filter { $0.isNumber && $0.isASCII }
            let looksLikePhone = !digits.isEmpty && query.allSatisfy { $0.isNumber || " +-().".contains($0) }
            let phone = looksLikePhone ? digits : query
            let pattern = Self.likePrefix(query)
            let phonePattern = Self.likePrefix(phone)
            return try db.query(
                """
                SELECT * FROM accounts WHERE tenant_id = ? AND (id = ? OR phone = ? OR email = ? OR phone LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\')
                ORDER BY created_at DESC, id DESC LIMIT ?
                """,
                [.text(tenantID), .text(query.lowercased()), .text(phone), .text(query.lowercased()), .text(phonePattern), .text(pattern.lowercased()),
                 .integer(bounded)]
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
        guard try await account(tenantID: tenantID, id: accountID)?.deletedAt == nil else { return false }
        try await deleteAccount(principal)
        return true
    }

    /// `text%` for LIKE, with LIKE's own characters escaped.
    static func likePrefix(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
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
