import Foundation

extension SubscriptionFlowWire {
    /// The SubscriptionFlow dialect (seed 003): the backend's calls with a server key, and the
    /// app's with a customer's account token and the client secret.
    public enum Endpoints {
        public static let prefix = "/api/v1/mobile-stores"

        static func endpoint<Body, Reply>(
            _ method: RequestMethod, _ path: String, _ credential: Credential, id: String, _ summary: String
        ) -> Endpoint<Body, Reply> {
            Endpoint(method, prefix + path, credential: credential, envelope: .subscriptionFlow, id: id, summary: summary)
        }

        public static let issueAccountToken: Endpoint<AccountTokenRequest, Envelope<AccountToken>> =
            endpoint(.POST, "/account-tokens", .serverKey, id: "issueAccountToken", "Issue (or reuse) a customer's account token")
        public static let revokeAccountToken: Endpoint<NoBody, Envelope<AccountToken>> =
            endpoint(.POST, "/account-tokens/:token/revoke", .serverKey, id: "revokeAccountToken", "Revoke an account token")
        public static let registerPurchase: Endpoint<CustomerPurchase, Envelope<PurchaseLink>> =
            endpoint(.POST, "/purchases", .serverKey, id: "registerPurchase", "Register a customer's purchase from the backend")
        public static let customerEntitlements: Endpoint<NoBody, Envelope<[Entitlement]>> =
            endpoint(.GET, "/customers/:customerId/entitlements", .serverKey, id: "customerEntitlements", "A customer's entitlements")
        public static let reportPurchase: Endpoint<PurchaseReport, Envelope<PurchaseLink>> =
            endpoint(.POST, "/client/purchases", .accountToken, id: "reportPurchase", "The app reports a signed transaction")
        public static let clientEntitlements: Endpoint<NoBody, Envelope<[Entitlement]>> =
            endpoint(.GET, "/client/entitlements", .accountToken, id: "clientEntitlements", "The app reads its customer's entitlements")

        public static var all: [EndpointDescription] {
            [
                issueAccountToken.described, revokeAccountToken.described, registerPurchase.described, customerEntitlements.described,
                reportPurchase.described, clientEntitlements.described,
            ]
        }
    }
}
