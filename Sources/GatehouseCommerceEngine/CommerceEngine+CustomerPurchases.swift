import Foundation
import GatehouseCore
import GatehouseDatabase

/// An entitlement of a SubscriptionFlow customer: one per plan key, with the grants behind it.
public struct CustomerEntitlement: Sendable, Equatable {
    public struct Grant: Sendable, Equatable {
        public let subscriptionId: String
        /// `Active` or `InGracePeriod`.
        public let status: String
        public let expiresAt: Date?
        /// `apple` or `google`.
        public let store: String
    }
    /// The plan's gated workflow id, else its catalogue id.
    public let key: String
    public let name: String
    public let subscriptionId: String
    public let expiresAt: Date?
    public let grants: [Grant]
}

/// What a SubscriptionFlow purchase report came to.
public enum CustomerPurchaseOutcome: Sendable, Equatable {
    /// Linked to the caller's customer (or already was).
    case linked([CustomerEntitlement])
    /// A sandbox purchase on a production connection: the mapped plan's entitlements, nothing recorded.
    case sandbox([CustomerEntitlement])
    /// Tagged with an account token that is not one of the caller's customer's.
    case conflict
    /// Refused for good; every reason gets this one answer, so existence is never revealed.
    case refused
}

extension CommerceEngine {
    /// The app's report (`POST /client/purchases`): a tagged purchase links only to its token's
    /// customer, an untagged Apple purchase only when the tenant lets the app claim them.
    public func reportCustomerPurchase(tenantID: String, customerID: String, signedTransaction: String) async throws -> CustomerPurchaseOutcome {
        try await linkCustomerPurchase(tenantID: tenantID, customerID: customerID, signedTransaction: signedTransaction, fromBackend: false)
    }

    /// The tenant's backend registers a purchase for a customer (`POST /purchases`); untagged
    /// purchases are always allowed here, since the backend knows its customer.
    public func registerCustomerPurchase(tenantID: String, customerID: String, signedTransaction: String) async throws -> CustomerPurchaseOutcome {
        try await linkCustomerPurchase(tenantID: tenantID, customerID: customerID, signedTransaction: signedTransaction, fromBackend: true)
    }

    public func customerEntitlements(tenantID: String, customerID: String) async throws -> [CustomerEntitlement] {
        let now = environment.clock.now
        return try await database.read { db in
            let subscriptions = try Self.subscriptions(db, tenantID: tenantID, holder: Self.customerHolder(customerID))
            return Self.entitlements(subscriptions, plans: try Self.plans(db, tenantID), now: now)
        }
    }

    private func linkCustomerPurchase(tenantID: String, customerID: String, signedTransaction: String, fromBackend: Bool) async throws
        -> CustomerPurchaseOutcome
    {
        let payload: TransactionPayload
        let connection: StoreConnection
        let plan: Plan
        do {
            connection = try await storeConnection(tenantID: tenantID)
            payload = try await verifiedTransaction(tenantID: tenantID, connection: connection, signed: signedTransaction, transactionID: nil, override: nil)
            guard case .plan(let found) = try await product(tenantID: tenantID, payload: payload) else { return .refused }
            plan = found
        } catch let error as PurchaseError where error.code != .storeUnavailable {
            return .refused
        }
        if let tag = payload.appAccountToken {
            guard try await customer(ofToken: tag, tenantID: tenantID) == customerID else { return .conflict }
        } else if !fromBackend && !connection.claimsUntaggedPurchases {
            return .refused
        }
        if connection.config.production, payload.environment == .sandbox {
            // App Review and TestFlight: unlock for the session, record nothing.
            guard let expiry = try? Self.expiry(of: payload, plan: plan) else { return .refused }
            let now = environment.clock.now
            let grant = CustomerEntitlement.Grant(subscriptionId: payload.originalTransactionId, status: "Active", expiresAt: expiry, store: "apple")
            let active = expiry > now && payload.revocationDate == nil
            return .sandbox(active ? [CustomerEntitlement(key: Self.key(plan), name: plan.displayName, subscriptionId: grant.subscriptionId,
                                                          expiresAt: expiry, grants: [grant])] : [])
        }
        do {
            _ = try await linkPlan(tenantID: tenantID, holder: Self.customerHolder(customerID), payload: payload, plan: plan, transfer: .never)
        } catch let error as PurchaseError where error.code == .linkedToAnotherAccount {
            return .refused
        }
        return .linked(try await customerEntitlements(tenantID: tenantID, customerID: customerID))
    }

    static let customerPrefix = "customer:"
    static func customerHolder(_ customerID: String) -> String { customerPrefix + customerID }

    static func key(_ plan: Plan) -> String { plan.gatedWorkflowId ?? plan.productId }

    /// Active grants grouped by plan key, the longest-lasting first within each.
    static func entitlements(_ subscriptions: [Subscription], plans: [Plan], now: Date) -> [CustomerEntitlement] {
        var byKey: [String: (plan: Plan, grants: [CustomerEntitlement.Grant])] = [:]
        for subscription in subscriptions {
            let state = subscription.state(at: now)
            guard state.hasAccess, let plan = plans.first(where: { $0.productId == subscription.planId }) else { continue }
            let grant = CustomerEntitlement.Grant(
                subscriptionId: subscription.id, status: state.status == .inGrace ? "InGracePeriod" : "Active", expiresAt: state.currentPeriodEnd,
                store: subscription.store)
            byKey[key(plan), default: (plan, [])].grants.append(grant)
        }
        return byKey.keys.sorted().map { key in
            let (plan, grants) = byKey[key]!
            let sorted = grants.sorted { ($0.expiresAt ?? .distantFuture) > ($1.expiresAt ?? .distantFuture) }
            return CustomerEntitlement(key: key, name: plan.displayName, subscriptionId: sorted[0].subscriptionId, expiresAt: sorted[0].expiresAt, grants: sorted)
        }
    }
}
