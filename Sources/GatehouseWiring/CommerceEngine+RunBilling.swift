import Foundation
import GatehouseCommerceEngine
import GatehouseDatabase
import GatehouseWorkflowsEngine

/// Runs are paid from the commerce engine's wallet and gated by its plans; this only
/// translates between the two engines' terms.
extension CommerceEngine: RunBilling {
    public func requireEntitlement(_ db: any DatabaseConnection, tenantID: String, accountID: String, workflowID: String, now: Date) throws {
        guard try mayRun(db, tenantID: tenantID, accountID: accountID, workflowID: workflowID, now: now) else {
            let started = try Self.trialStarted(db, tenantID: tenantID, accountID: accountID)
            throw WorkflowError(.entitlementInactive, .entitlementInactive(trialStarted: started))
        }
    }

    public func charge(_ db: any DatabaseConnection, tenantID: String, accountID: String, credits: Int, reference: String, now: Date) throws {
        if case .insufficient(let balance) = try Self.charge(
            db, tenantID: tenantID, accountID: accountID, credits: credits, reference: reference, now: now)
        {
            throw WorkflowError(.insufficientCredits(balance: balance), .insufficientCredits(cost: credits, balance: balance))
        }
    }

    public func refund(_ db: any DatabaseConnection, tenantID: String, accountID: String, reference: String, now: Date) throws -> Int {
        try Self.refund(db, tenantID: tenantID, accountID: accountID, reference: reference, now: now)
    }

    public func gatedWorkflows(_ db: any DatabaseConnection, tenantID: String) throws -> Set<String> {
        try Self.gatedWorkflows(db, tenantID: tenantID)
    }

    public var gatingCacheName: String { Self.planCacheName }
}
