import Foundation
import GatehouseCore

/// SubscriptionFlow's Google Play reports (seed 003: "an untagged Google purchase links: only
/// the buyer's device knows its purchase token").
extension CommerceEngine {
    /// The app's report: a purchase tagged with an account token (its
    /// `obfuscatedExternalAccountId`) links only to that token's customer; an untagged one
    /// links to the caller.
    public func reportCustomerGooglePurchase(tenantID: String, customerID: String, productID: String, purchaseToken: String) async throws
        -> CustomerPurchaseOutcome
    {
        try await linkCustomerGooglePurchase(tenantID: tenantID, customerID: customerID, productID: productID, token: purchaseToken)
    }

    /// The tenant's backend registers a Play purchase for a customer, by the same rules.
    public func registerCustomerGooglePurchase(tenantID: String, customerID: String, productID: String, purchaseToken: String) async throws
        -> CustomerPurchaseOutcome
    {
        try await linkCustomerGooglePurchase(tenantID: tenantID, customerID: customerID, productID: productID, token: purchaseToken)
    }

    /// Every refusal but a tag naming another customer is one `.refused`, so a report never
    /// tells whether a token or product exists; Google unreachable throws (retry later).
    private func linkCustomerGooglePurchase(tenantID: String, customerID: String, productID: String, token: String) async throws
        -> CustomerPurchaseOutcome
    {
        let plans: [Plan]
        let connection: GooglePlayConnection
        let purchase: PlaySubscription
        do {
            guard GooglePlayAPI.isPathSegment(token) else { return .refused }
            plans = try await self.plans(tenantID: tenantID)
            guard plans.contains(where: { $0.google?.subscriptionID == productID }) else { return .refused }
            connection = try await googlePlayConnection(tenantID: tenantID)
            purchase = try await readGoogleSubscription(tenantID: tenantID, connection: connection, token: token)
        } catch let error as PurchaseError where error.code != .storeUnavailable {
            return .refused
        }
        if let tag = purchase.obfuscatedAccountID {
            guard try await customer(ofToken: tag, tenantID: tenantID) == customerID else { return .conflict }
        }
        do {
            _ = try await linkGoogleSubscription(
                tenantID: tenantID, holder: Self.customerHolder(customerID), connection: connection, productID: productID, token: token,
                plans: plans, transfer: .never, purchase: purchase)
        } catch let error as PurchaseError where error.code != .storeUnavailable {
            return .refused
        }
        return .linked(try await customerEntitlements(tenantID: tenantID, customerID: customerID))
    }
}
