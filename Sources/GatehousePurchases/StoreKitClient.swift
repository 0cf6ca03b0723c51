import Foundation

/// A StoreKit 2 transaction as the purchase manager needs it.
public struct StoreTransaction: Sendable, Equatable, Hashable {
    /// StoreKit's product type.
    public enum ProductType: String, Sendable {
        /// Bought again and again (credit packages).
        case consumable
        /// Bought once.
        case nonConsumable
        /// An auto-renewable subscription.
        case autoRenewable
        /// A subscription that does not renew.
        case nonRenewable
    }
    /// `Transaction.id`, as the decimal string the servers use.
    public let id: String
    /// `Transaction.originalID`: the first purchase of a subscription's chain of renewals.
    public let originalID: String
    /// The App Store product id.
    public let productID: String
    /// The product's type.
    public let productType: ProductType
    /// The App Store's signed transaction (`VerificationResult.jwsRepresentation`).
    public let jwsRepresentation: String
    /// The UUID passed at purchase (SubscriptionFlow's account token), if any.
    public let appAccountToken: UUID?

    /// A transaction.
    public init(id: String, originalID: String, productID: String, productType: ProductType, jwsRepresentation: String, appAccountToken: UUID?) {
        self.id = id
        self.originalID = originalID
        self.productID = productID
        self.productType = productType
        self.jwsRepresentation = jwsRepresentation
        self.appAccountToken = appAccountToken
    }
}

/// StoreKit's `VerificationResult<Transaction>`: only `.verified` transactions are ever reported or finished.
public enum StoreVerificationResult: Sendable, Equatable {
    /// StoreKit verified the App Store's signature.
    case verified(StoreTransaction)
    /// StoreKit could not verify it; never reported, never finished.
    case unverified(StoreTransaction, reason: String)

    /// The transaction, only when StoreKit verified it.
    public var verified: StoreTransaction? {
        if case .verified(let transaction) = self { return transaction }
        return nil
    }
}

/// What `Product.purchase()` answered.
public enum StorePurchaseResult: Sendable, Equatable {
    /// Bought: the transaction to handle.
    case success(StoreVerificationResult)
    /// Ask to Buy or SCA: the transaction arrives later through `updates`.
    case pending
    /// The user cancelled.
    case userCancelled
}

/// The part of StoreKit 2 the purchase manager uses; `StoreKit2Client` is the real one on Apple
/// platforms and `ScriptedStoreKit` a scripted one for tests.
public protocol StoreKitClient: Sendable {
    /// Buys a product, tagging the purchase with `appAccountToken` when given.
    func purchase(productID: String, appAccountToken: UUID?) async throws -> StorePurchaseResult
    /// `Transaction.updates`: renewals, Ask to Buy approvals, purchases made elsewhere.
    func updates() -> AsyncStream<StoreVerificationResult>
    /// `Transaction.unfinished`.
    func unfinished() async -> [StoreVerificationResult]
    /// `Transaction.currentEntitlements`.
    func currentEntitlements() async -> [StoreVerificationResult]
    /// `transaction.finish()`.
    func finish(_ transaction: StoreTransaction) async throws
    /// `AppStore.sync()`, for a Restore purchases button.
    func sync() async throws
}
