extension SubscriptionFlowWire {
    /// The body of `POST /api/v1/mobile-stores/account-tokens`: `{"customer_id", "rotate"?}`.
    public struct AccountTokenRequest: Codable, Sendable, Equatable {
        /// The backend's own id of the customer.
        public var customerId: String
        /// `true` revokes the customer's live token and issues a new one.
        public var rotate: Bool?

        /// A token request; `nil` fields are left out.
        public init(customerId: String, rotate: Bool? = nil) {
            self.customerId = customerId
            self.rotate = rotate
        }

        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case rotate
            case customerId = "customer_id"
        }
    }

    /// The body of `POST /api/v1/mobile-stores/purchases` (a backend registering a purchase):
    /// `{"customer_id", "store": "apple", "signed_transaction"}` or `{"customer_id", "store": "google", "purchase_token", "product_id"}`.
    public struct CustomerPurchase: Codable, Sendable, Equatable {
        /// The backend's own id of the customer.
        public var customerId: String
        /// `apple` or `google`.
        public var store: String
        /// Apple: the StoreKit 2 signed transaction.
        public var signedTransaction: String?
        /// Google: the Play Billing purchase token.
        public var purchaseToken: String?
        /// Google: the Play product (subscription) id.
        public var productId: String?

        /// An App Store purchase registration.
        public init(customerId: String, store: String = "apple", signedTransaction: String) {
            self.customerId = customerId
            self.store = store
            self.signedTransaction = signedTransaction
        }

        /// A Google Play purchase registration.
        public init(customerId: String, purchaseToken: String, productId: String) {
            self.customerId = customerId
            store = "google"
            self.purchaseToken = purchaseToken
            self.productId = productId
        }

        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case store
            case customerId = "customer_id", signedTransaction = "signed_transaction", purchaseToken = "purchase_token", productId = "product_id"
        }
    }
}
