extension DatacoveWire {
    /// The body of `POST purchases/v1/verify-purchase` (seed 000 §07).
    public struct VerifyPurchase: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case platform, platformProductId, transactionId, signedTransaction, purchaseToken, transferToCurrentAccount
        }
        /// `apple` or `google`.
        public var platform: String
        /// The App Store product id, or the Play product (subscription) id.
        public var platformProductId: String
        /// Apple: `Transaction.id` as a decimal string.
        public var transactionId: String?
        /// Apple: the StoreKit 2 JWS, verified offline; without it the server asks the App Store Server API by id.
        public var signedTransaction: String?
        /// Google: the Play Billing `Purchase.getPurchaseToken()`; the server reads the purchase from Google.
        public var purchaseToken: String?
        /// `true` only after the user agreed to move a plan from another account.
        public var transferToCurrentAccount: Bool?

        /// An App Store verify-purchase body; `nil` fields are left out.
        public init(
            platform: String = "apple", platformProductId: String, transactionId: String, signedTransaction: String? = nil,
            transferToCurrentAccount: Bool? = nil
        ) {
            self.platform = platform
            self.platformProductId = platformProductId
            self.transactionId = transactionId
            self.signedTransaction = signedTransaction
            self.transferToCurrentAccount = transferToCurrentAccount
        }

        /// A Google Play verify-purchase body.
        public init(platformProductId: String, purchaseToken: String, transferToCurrentAccount: Bool? = nil) {
            platform = "google"
            self.platformProductId = platformProductId
            self.purchaseToken = purchaseToken
            self.transferToCurrentAccount = transferToCurrentAccount
        }
    }

    /// The 200 answer of verify-purchase: `{"kind": "credit_package", "creditsGranted": 500}` or
    /// `{"kind": "service_entitlement", "entitlementStatus", "currentPeriodEnd", "transferred"?}`.
    public struct PurchaseResult: Codable, Sendable, Equatable {
        /// `credit_package` or `service_entitlement`.
        public var kind: String
        /// Credits added to the wallet (credit packages).
        public var creditsGranted: Int?
        /// The plan's state now (plans).
        public var entitlementStatus: String?
        /// The end of the paid period (plans); sent as `null` when the plan has none.
        public var currentPeriodEnd: String?
        /// `true` when the plan was just moved from another account; absent otherwise.
        public var transferred: Bool?

        /// A purchase result.
        public init(
            kind: String, creditsGranted: Int? = nil, entitlementStatus: String? = nil, currentPeriodEnd: String? = nil,
            transferred: Bool? = nil
        ) {
            self.kind = kind
            self.creditsGranted = creditsGranted
            self.entitlementStatus = entitlementStatus
            self.currentPeriodEnd = currentPeriodEnd
            self.transferred = transferred
        }

        enum CodingKeys: String, CodingKey { case kind, creditsGranted, entitlementStatus, currentPeriodEnd, transferred }

        /// Writes `currentPeriodEnd` (even as `null`) whenever there is an `entitlementStatus`, as the server does.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encodeIfPresent(creditsGranted, forKey: .creditsGranted)
            if let entitlementStatus {
                try container.encode(entitlementStatus, forKey: .entitlementStatus)
                try container.encode(currentPeriodEnd, forKey: .currentPeriodEnd)
            }
            try container.encodeIfPresent(transferred, forKey: .transferred)
        }
    }
}
