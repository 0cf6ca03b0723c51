import GatehouseAccountsEngine
import GatehouseCommerceEngine

/// The commerce engine asks the accounts engine whether a plan may move without asking; the
/// rule is the accounts engine's own, this only translates the answer.
extension AccountsEngine: AccountDirectory {
    public func relation(tenantID: String, holder: String, reporter: String) async throws -> AccountRelation {
        switch try await ownership(tenantID: tenantID, holder: holder, reporter: reporter) {
        case .holderDeleted: .deleted
        case .sameOwner: .sameOwner
        case .unrelated: .unrelated
        }
    }
}
