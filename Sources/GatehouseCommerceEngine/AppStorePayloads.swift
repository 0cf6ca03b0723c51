import Foundation

/// A verified StoreKit 2 transaction (Apple's JWSTransactionDecodedPayload); dates decode from ms.
public struct TransactionPayload: Decodable, Sendable, Equatable {
    /// Unique per purchase or renewal; the idempotency key.
    public let transactionId: String
    /// Stable across renewals; the account link key.
    public let originalTransactionId: String
    /// One subscription billing period across devices.
    public let webOrderLineItemId: String?
    /// The product purchased.
    public let productId: String
    /// The subscription group, for subscriptions.
    public let subscriptionGroupIdentifier: String?
    /// `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable` or `Non-Renewing Subscription`.
    public let type: String?
    /// When this transaction was charged.
    public let purchaseDate: Date?
    /// When the original transaction was charged.
    public let originalPurchaseDate: Date?
    /// End of the subscription period; nil for non-subscriptions.
    public let expiresDate: Date?
    /// Set when refunded or revoked: access must end.
    public let revocationDate: Date?
    /// 0 other, 1 app issue.
    public let revocationReason: Int?
    /// `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`.
    public let revocationType: String?
    /// Refunded share in thousandths, for prorated refunds.
    public let revocationPercentage: Int?
    /// True on the old transaction after an upgrade.
    public let isUpgraded: Bool?
    /// The UUID the app passed at purchase; nil for purchases made outside the app.
    public let appAccountToken: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public let inAppOwnershipType: String?
    /// Where the transaction happened.
    public let environment: AppStoreEnvironment
    /// The app's bundle id (checked against the tenant's).
    public let bundleId: String
    /// When Apple signed this payload; the certificate validation time.
    public let signedDate: Date?
    /// 1 intro, 2 promotional, 3 offer code, 4 win-back.
    public let offerType: Int?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
    public let offerDiscountType: String?
    /// The redeemed offer's identifier.
    public let offerIdentifier: String?
    /// The offer's ISO 8601 period.
    public let offerPeriod: String?
    /// `PURCHASE` or `RENEWAL`.
    public let transactionReason: String?
    /// Units bought.
    public let quantity: Int?
    /// Price in milli-units of `currency`.
    public let price: Int64?
    /// ISO 4217 currency code.
    public let currency: String?
    /// Three-letter storefront country code.
    public let storefront: String?
    /// Apple's storefront identifier.
    public let storefrontId: String?
    /// Per-Apple-account app identifier.
    public let appTransactionId: String?
}

/// Verified subscription renewal info (Apple's JWSRenewalInfoDecodedPayload).
public struct RenewalInfoPayload: Decodable, Sendable, Equatable {
    /// The subscription chain this describes.
    public let originalTransactionId: String
    /// 0 off, 1 on.
    public let autoRenewStatus: Int?
    /// The product that renews next (differs from `productId` for a pending downgrade).
    public let autoRenewProductId: String?
    /// The current product.
    public let productId: String?
    /// 1 cancelled, 2 billing error, 3 price increase refused, 4 product unavailable, 5 other.
    public let expirationIntent: Int?
    /// True while Apple retries billing.
    public let isInBillingRetryPeriod: Bool?
    /// End of the billing grace period (may be nil even in GRACE_PERIOD; see the notes).
    public let gracePeriodExpiresDate: Date?
    /// The next renewal date.
    public let renewalDate: Date?
    /// Start of the current unbroken subscription span.
    public let recentSubscriptionStartDate: Date?
    /// 0 pending, 1 accepted price increase.
    public let priceIncreaseStatus: Int?
    /// Offer applying at renewal.
    public let offerType: Int?
    /// Identifier of that offer.
    public let offerIdentifier: String?
    /// Where the subscription lives.
    public let environment: AppStoreEnvironment
    /// When Apple signed this payload.
    public let signedDate: Date?
    /// The app's account token, if the purchase carried one.
    public let appAccountToken: String?
    /// Renewal price in milli-units of `currency`.
    public let renewalPrice: Int64?
    /// ISO 4217 currency code.
    public let currency: String?
    /// Per-Apple-account app identifier.
    public let appTransactionId: String?
}

/// A verified App Store Server Notification V2 (Apple's ResponseBodyV2DecodedPayload).
public struct NotificationPayload: Decodable, Sendable, Equatable {
    /// E.g. `SUBSCRIBED`, `DID_RENEW`, `REFUND`, `TEST`.
    public let notificationType: String
    /// E.g. `INITIAL_BUY`; nil when the type has none.
    public let subtype: String?
    /// Unique per notification; the webhook idempotency key.
    public let notificationUUID: String
    /// `2.0`.
    public let version: String?
    /// When Apple signed the notification.
    public let signedDate: Date?
    /// The app and its nested signed data; nil for summary, external-token and app-data notifications.
    public let data: NotificationData?
}

/// The `data` object of a notification; nested JWS stay strings until verified.
public struct NotificationData: Decodable, Sendable, Equatable {
    /// The app's bundle id (checked against the tenant's).
    public let bundleId: String?
    /// The app's Apple id (checked in Production when the tenant has one).
    public let appAppleId: Int64?
    /// The environment the notification is about.
    public let environment: AppStoreEnvironment?
    /// The app build version.
    public let bundleVersion: String?
    /// A nested signed transaction; verify with `SignedDataVerifier.verifyTransaction`.
    public let signedTransactionInfo: String?
    /// A nested signed renewal info; verify with `SignedDataVerifier.verifyRenewalInfo`.
    public let signedRenewalInfo: String?
    /// 1 active, 2 expired, 3 billing retry, 4 billing grace, 5 revoked.
    public let status: Int?
    /// Why the customer asked for a refund (CONSUMPTION_REQUEST).
    public let consumptionRequestReason: String?
}
