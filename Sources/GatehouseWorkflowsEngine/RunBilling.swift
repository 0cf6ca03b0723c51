import Foundation
import GatehouseDatabase

/// What a run costs and who may start one, decided by the commerce engine (wired in
/// GatehouseServer) inside the transaction that creates or ends the run: the charge and the
/// run commit together, and a refund happens at most once per run.
public protocol RunBilling: Sendable {
    /// Throws `WorkflowError(.entitlementInactive)` when a plan gates `workflowID` and the
    /// account has neither an active trial nor a plan covering it.
    func requireEntitlement(_ db: any DatabaseConnection, tenantID: String, accountID: String, workflowID: String, now: Date) throws

    /// Takes `credits` from the account's `WALLET`, recorded against `reference`; throws
    /// `WorkflowError(.insufficientCredits)` when the balance is short. Never goes below zero,
    /// however many charges run at once.
    func charge(_ db: any DatabaseConnection, tenantID: String, accountID: String, credits: Int, reference: String, now: Date) throws

    /// Gives back what the charge of `reference` took; returns the credits given back, 0 when
    /// there was no charge or it was already refunded.
    func refund(_ db: any DatabaseConnection, tenantID: String, accountID: String, reference: String, now: Date) throws -> Int

    /// The workflow ids a plan of the tenant gates.
    func gatedWorkflows(_ db: any DatabaseConnection, tenantID: String) throws -> Set<String>

    /// The cache name under which a change to what the tenant's plans gate is announced, keyed
    /// by tenant id (see `CacheInvalidations`): the catalogue kept on each node listens to it.
    var gatingCacheName: String { get }
}
