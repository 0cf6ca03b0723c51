extension SubscriptionFlowWire {
    /// The body of `POST /api/v1/mobile-stores/client/purchases`: `{"store": "apple", "signed_transaction": JWS}`,
    /// or `{"store": "google", "purchase_token", "product_id"}`.
    public struct PurchaseReport: Codable, Sendable, Equatable {
        /// `apple` or `google`.
        public var store: String
        /// Apple: the StoreKit 2 signed transaction.
        public var signedTransaction: String?
        /// Google: the Play Billing purchase token.
        public var purchaseToken: String?
        /// Google: the Play product (subscription) id.
        public var productId: String?

        /// An App Store purchase report.
        public init(store: String = "apple", signedTransaction: String) {
            self.store = store
            self.signedTransaction = signedTransaction
        }

        /// A Google Play purchase report.
        public init(purchaseToken: String, productId: String) {
            store = "google"
            self.purchaseToken = purchaseToken
            self.productId = productId
        }

        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case store
            case signedTransaction = "signed_transaction", purchaseToken = "purchase_token", productId = "product_id"
        }
    }

    /// The `data` of a 200 purchase report: linked, or a sandbox purchase on a production connection.
    public struct PurchaseLink: Codable, Sendable, Equatable {
        /// Whether the purchase is now linked to the caller's customer.
        public var linked: Bool
        /// A sandbox purchase on a production connection: unlock for this session only, nothing is recorded.
        public var sandbox: Bool
        /// The caller's entitlements now.
        public var entitlements: [Entitlement]

        /// A purchase link.
        public init(linked: Bool, sandbox: Bool, entitlements: [Entitlement]) {
            self.linked = linked
            self.sandbox = sandbox
            self.entitlements = entitlements
        }
    }

    /// One entitlement, as `GET /api/v1/mobile-stores/client/entitlements` lists them.
    public struct Entitlement: Codable, Sendable, Equatable {
        /// The entitlement key features unlock by (`pro`).
        public var key: String
        /// Its display name.
        public var name: String
        /// Where it comes from (`AppStore`, `GooglePlay`): its longest-lasting grant's store.
        public var source: String
        /// The subscription granting it.
        public var subscriptionId: String
        /// When it ends (`2026-11-28T09:00:00+00:00`); sent as `null` when it does not.
        @ExplicitNull public var expiresAt: String?
        /// Each subscription granting it.
        public var grants: [Grant]

        /// An entitlement.
        public init(key: String, name: String, source: String, subscriptionId: String, expiresAt: String?, grants: [Grant]) {
            self.key = key
            self.name = name
            self.source = source
            self.subscriptionId = subscriptionId
            self.expiresAt = expiresAt
            self.grants = grants
        }

        enum CodingKeys: String, CodingKey {
            case key, name, source, grants
            case subscriptionId = "subscription_id"
            case expiresAt = "expires_at"
        }
    }

    /// One subscription behind an entitlement.
    public struct Grant: Codable, Sendable, Equatable {
        /// Where it comes from (`AppStore`, `GooglePlay`).
        public var source: String
        /// The subscription.
        public var subscriptionId: String
        /// Its state (`Active`).
        public var status: String
        /// When it ends; sent as `null` when it does not.
        @ExplicitNull public var expiresAt: String?

        /// A grant.
        public init(source: String, subscriptionId: String, status: String, expiresAt: String?) {
            self.source = source
            self.subscriptionId = subscriptionId
            self.status = status
            self.expiresAt = expiresAt
        }

        enum CodingKeys: String, CodingKey {
            case source, status
            case subscriptionId = "subscription_id"
            case expiresAt = "expires_at"
        }
    }
}
