import Foundation

/// A StoreKit 2 transaction as the purchase manager needs it.
public struct StoreTransaction: Sendable, Equatable, Hashable {
    public enum ProductType: String, Sendable {
        case consumable, nonConsumable, autoRenewable, nonRenewable
    }
    /// `Transaction.id`, as the decimal string the servers use.
    public let id: String
    public let originalID: String
    public let productID: String
    public let productType: ProductType
    /// The App Store's signed transaction (`VerificationResult.jwsRepresentation`).
    public let jwsRepresentation: String
    /// The UUID passed at purchase (SubscriptionFlow's account token), if any.
    public let appAccountToken: UUID?

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
    case verified(StoreTransaction)
    case unverified(StoreTransaction, reason: String)

    /// The transaction, only when StoreKit verified it.
    public var verified: StoreTransaction? {
        if case .verified(let transaction) = self { return transaction }
        return nil
    }
}

/// What `Product.purchase()` answered.
public enum StorePurchaseResult: Sendable, Equatable {
    case success(StoreVerificationResult)
    /// Ask to Buy or SCA: the transaction arrives later through `updates`.
    case pending
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
