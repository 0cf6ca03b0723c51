/// How the account holding a plan relates to the account now reporting it (seed 000 §07,
/// "Moving a plan to another account").
public enum AccountRelation: Sendable, Equatable {
    /// The holder was deleted: the plan moves without asking.
    case deleted
    /// The holder shares the reporting account's phone number or email: it moves without asking.
    case sameOwner
    /// Someone else's account: the user must agree to the move.
    case unrelated
}

/// The commerce engine's view of accounts, answered by the accounts engine; the commerce
/// engine never reads the accounts tables itself.
public protocol AccountDirectory: Sendable {
    func relation(tenantID: String, holder: String, reporter: String) async throws -> AccountRelation
    /// Whether `accountID` is a live account of the tenant (a purchase tagged with it is its).
    func accountExists(tenantID: String, accountID: String) async throws -> Bool
}
