#if canImport(StoreKit)
import Foundation
import StoreKit

/// The real StoreKit 2 behind `StoreKitClient` (Apple platforms only).
@available(iOS 15.0, macOS 12.0, *)
public struct StoreKit2Client: StoreKitClient {
    /// The client; StoreKit itself needs no setup.
    public init() {}

    /// Buys through `Product.purchase(options:)`, tagged with `appAccountToken` when given.
    public func purchase(productID: String, appAccountToken: UUID?) async throws -> StorePurchaseResult {
        guard let product = try await Product.products(for: [productID]).first else { throw StoreKit2ClientError.unknownProduct(productID) }
        var options: Set<Product.PurchaseOption> = []
        if let appAccountToken { options.insert(.appAccountToken(appAccountToken)) }
        switch try await product.purchase(options: options) {
        case .success(let verification): return .success(Self.convert(verification))
        case .pending: return .pending
        case .userCancelled: return .userCancelled
        @unknown default: return .pending
        }
    }

    /// `Transaction.updates`, converted.
    public func updates() -> AsyncStream<StoreVerificationResult> {
        AsyncStream { continuation in
            let task = Task {
                for await verification in Transaction.updates { continuation.yield(Self.convert(verification)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// `Transaction.unfinished`, converted.
    public func unfinished() async -> [StoreVerificationResult] {
        var results: [StoreVerificationResult] = []
        for await verification in Transaction.unfinished { results.append(Self.convert(verification)) }
        return results
    }

    /// `Transaction.currentEntitlements`, converted.
    public func currentEntitlements() async -> [StoreVerificationResult] {
        var results: [StoreVerificationResult] = []
        for await verification in Transaction.currentEntitlements { results.append(Self.convert(verification)) }
        return results
    }

    /// Finishes StoreKit's own transaction with this id.
    public func finish(_ transaction: StoreTransaction) async throws {
        // Finishing needs StoreKit's own transaction: find it among the unfinished ones.
        for await verification in Transaction.unfinished {
            if case .verified(let original) = verification, String(original.id) == transaction.id {
                await original.finish()
                return
            }
        }
    }

    /// `AppStore.sync()`.
    public func sync() async throws {
        try await AppStore.sync()
    }

    static func convert(_ verification: VerificationResult<Transaction>) -> StoreVerificationResult {
        switch verification {
        case .verified(let transaction):
            return .verified(convert(transaction, jws: verification.jwsRepresentation))
        case .unverified(let transaction, let error):
            return .unverified(convert(transaction, jws: verification.jwsRepresentation), reason: String(describing: error))
        }
    }

    static func convert(_ transaction: Transaction, jws: String) -> StoreTransaction {
        let type: StoreTransaction.ProductType
        switch transaction.productType {
        case .consumable: type = .consumable
        case .nonConsumable: type = .nonConsumable
        case .autoRenewable: type = .autoRenewable
        default: type = .nonRenewable
        }
        return StoreTransaction(
            id: String(transaction.id), originalID: String(transaction.originalID), productID: transaction.productID, productType: type,
            jwsRepresentation: jws, appAccountToken: transaction.appAccountToken)
    }
}

/// What `StoreKit2Client` throws itself.
public enum StoreKit2ClientError: Error, Equatable {
    /// The App Store knows no product with this id.
    case unknownProduct(String)
}
#endif
