import GatehouseCommerceEngine
import GatehouseHTTP
import GatehouseWire
import GatehouseFormats

/// SubscriptionFlow request bodies, read into the shared wire types by their own coding keys
/// (`CommerceBody`); unknown keys are refused.
enum SubscriptionFlowBody {
    static func accountTokenRequest(_ request: Request) throws -> SubscriptionFlowWire.AccountTokenRequest {
        try CommerceBody.decode(SubscriptionFlowWire.AccountTokenRequest.self, request, keys: SubscriptionFlowWire.AccountTokenRequest.CodingKeys.self)
    }

    static func customerPurchase(_ request: Request) throws -> SubscriptionFlowWire.CustomerPurchase {
        typealias Keys = SubscriptionFlowWire.CustomerPurchase.CodingKeys
        let body = try CommerceBody.decode(SubscriptionFlowWire.CustomerPurchase.self, request, keys: Keys.self, refusal: storeRefusal)
        try check(store: body.store, signedTransaction: body.signedTransaction)
        return body
    }

    static func purchaseReport(_ request: Request) throws -> SubscriptionFlowWire.PurchaseReport {
        typealias Keys = SubscriptionFlowWire.PurchaseReport.CodingKeys
        let body = try CommerceBody.decode(SubscriptionFlowWire.PurchaseReport.self, request, keys: Keys.self, refusal: storeRefusal)
        try check(store: body.store, signedTransaction: body.signedTransaction)
        return body
    }

    private static let storeRefused = CommerceError.invalid("store", .oneOf(["apple"]))

    /// A `store` left out or not a string reads as any other store: not `apple`.
    private static func storeRefusal(_ error: BodyDecodingError) -> CommerceError? { error.path == ["store"] ? storeRefused : nil }

    /// `store` must be `apple` and `signed_transaction` a non-empty string.
    private static func check(store: String, signedTransaction: String) throws {
        guard store == "apple" else { throw storeRefused }
        guard !signedTransaction.isEmpty else { throw CommerceError.invalid("signed_transaction", .required) }
    }
}
