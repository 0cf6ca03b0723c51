import Foundation
import GatehouseCore

/// SubscriptionFlow's Google Play reports (seed 003: "an untagged Google purchase links: only
/// the buyer's device knows its purchase token").
extension CommerceEngine {
    /// A Play purchase reported by the app, or registered by the tenant's backend, for a
    /// customer: a purchase tagged with an account token (its `obfuscatedExternalAccountId`)
    /// links only to that token's customer; an untagged one links to the customer named.
    /// Every refusal but a tag naming another customer is one `.refused`, so a report never
    /// tells whether a token or product exists; Google unreachable throws (retry later).
    public func linkCustomerGooglePurchase(tenantID: String, customerID: String, productID: String, token: String) async throws
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
        if purchase.obfuscatedAccountID != nil {
            guard let tag = Self.screenedTag(purchase.obfuscatedAccountID), try await customer(ofToken: tag, tenantID: tenantID) == customerID
            else { return .conflict }
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
