import GatehouseAccountsEngine
import GatehouseCommerceEngine

/// The commerce engine asks the accounts engine whether a plan may move without asking.
extension AccountsEngine: AccountDirectory {
    public func relation(tenantID: String, holder: String, reporter: String) async throws -> AccountRelation {
        guard let old = try await identity(tenantID: tenantID, accountID: holder) else { return .deleted }
        if old.deleted { return .deleted }
        guard let new = try await identity(tenantID: tenantID, accountID: reporter) else { return .unrelated }
        let sharesPhone = old.phone != nil && old.phone == new.phone
        let sharesEmail = old.email != nil && old.email == new.email
        return sharesPhone || sharesEmail ? .sameOwner : .unrelated
    }
}
