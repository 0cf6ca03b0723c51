import Foundation

/// How the account holding something (a plan) relates to another account of the tenant.
public enum AccountOwnership: Sendable, Equatable {
    /// The holder was deleted, or never existed in this tenant.
    case holderDeleted
    /// The holder shares the other account's phone number or email: the same person.
    case sameOwner
    /// Someone else.
    case unrelated
}

extension AccountsEngine {
    /// Seed 000 §07, "Moving a plan to another account": a plan whose holder was deleted, or
    /// whose holder shares the reporting account's phone number or email, moves without
    /// asking; otherwise the user must agree. Both accounts are read in one transaction.
    public func ownership(tenantID: String, holder: String, reporter: String) async throws -> AccountOwnership {
        try await database.read { db in
            let rows = try db.query(
                "SELECT id, phone, email, deleted_at FROM accounts WHERE tenant_id = ? AND id IN (?, ?)", [.text(tenantID), .text(holder), .text(reporter)])
            func identity(_ id: String) throws -> AccountIdentity? {
                guard let row = try rows.first(where: { try $0.get("id", as: String.self) == id }) else { return nil }
                return AccountIdentity(deleted: try row.get("deleted_at", as: Date?.self) != nil, phone: try row.get("phone"), email: try row.get("email"))
            }
            guard let old = try identity(holder), !old.deleted else { return .holderDeleted }
            guard let new = try identity(reporter) else { return .unrelated }
            let sharesPhone = old.phone != nil && old.phone == new.phone
            let sharesEmail = old.email != nil && old.email == new.email
            return sharesPhone || sharesEmail ? .sameOwner : .unrelated
        }
    }

    /// Whether `accountID` is a live (not deleted) account of the tenant.
    public func accountExists(tenantID: String, accountID: String) async throws -> Bool {
        try await database.read { db in
            try db.queryOne("SELECT id FROM accounts WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL", tenantID, accountID) != nil
        }
    }
}
