/// An error code from a purchase server (Datacove `error.code`, SubscriptionFlow `code`).
/// Open: codes the server adds later still decode, and compare by their spelling.
public struct PurchasesErrorCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The code as the server spells it.
    public let rawValue: String
    /// A code from its raw spelling.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A code from a literal.
    public init(stringLiteral value: String) { rawValue = value }
    /// The raw spelling.
    public var description: String { rawValue }

    /// Datacove: the plan is active on another account; `canTransfer` says whether it may be moved.
    public static let purchaseLinkedToAnotherAccount: PurchasesErrorCode = "PURCHASE_LINKED_TO_ANOTHER_ACCOUNT"
    /// Datacove: the transaction is not a valid App Store purchase.
    public static let purchaseInvalid: PurchasesErrorCode = "PURCHASE_INVALID"
    /// Datacove: the product is not in the tenant's catalog.
    public static let productUnknown: PurchasesErrorCode = "PRODUCT_UNKNOWN"
    /// Datacove: the purchase was refunded or revoked.
    public static let purchaseRevoked: PurchasesErrorCode = "PURCHASE_REVOKED"
    /// The tenant has not set up its App Store connection yet; retry later.
    public static let storeNotConfigured: PurchasesErrorCode = "STORE_NOT_CONFIGURED"
    /// The App Store could not be reached; retry later.
    public static let storeUnavailable: PurchasesErrorCode = "STORE_UNAVAILABLE"
    /// Datacove: the trial was already used or is off.
    public static let trialUnavailable: PurchasesErrorCode = "TRIAL_UNAVAILABLE"
    /// Datacove: a gated workflow needs an active trial or plan.
    public static let entitlementInactive: PurchasesErrorCode = "ENTITLEMENT_INACTIVE"
    /// SubscriptionFlow: the purchase was tagged with another customer's account token.
    public static let purchaseTaggedForAnotherAccount: PurchasesErrorCode = "PURCHASE_TAGGED_FOR_ANOTHER_ACCOUNT"
    /// SubscriptionFlow: the purchase cannot be linked to this account.
    public static let purchaseRefused: PurchasesErrorCode = "PURCHASE_REFUSED"
    /// SubscriptionFlow: the account token pair is missing or not valid.
    public static let unauthenticated: PurchasesErrorCode = "UNAUTHENTICATED"
    /// Too many requests; wait for `Retry-After`.
    public static let rateLimited: PurchasesErrorCode = "RATE_LIMITED"
    /// The request body failed validation.
    public static let validationFailed: PurchasesErrorCode = "VALIDATION_FAILED"
}
