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
        try check(store: body.store, signedTransaction: body.signedTransaction, purchaseToken: body.purchaseToken, productID: body.productId)
        return body
    }

    static func purchaseReport(_ request: Request) throws -> SubscriptionFlowWire.PurchaseReport {
        typealias Keys = SubscriptionFlowWire.PurchaseReport.CodingKeys
        let body = try CommerceBody.decode(SubscriptionFlowWire.PurchaseReport.self, request, keys: Keys.self, refusal: storeRefusal)
        try check(store: body.store, signedTransaction: body.signedTransaction, purchaseToken: body.purchaseToken, productID: body.productId)
        return body
    }

    private static let storeRefused = CommerceError.invalid("store", .oneOf(["apple", "google"]))

    /// A `store` left out or not a string reads as any other store: neither `apple` nor `google`.
    private static func storeRefusal(_ error: BodyDecodingError) -> CommerceError? { error.path == ["store"] ? storeRefused : nil }

    /// `store` must be `apple` with a non-empty `signed_transaction`, or `google` with a
    /// non-empty `purchase_token` and `product_id`.
    private static func check(store: String, signedTransaction: String?, purchaseToken: String?, productID: String?) throws {
        switch store {
        case "apple":
            guard signedTransaction?.isEmpty == false else { throw CommerceError.invalid("signed_transaction", .required) }
        case "google":
            guard purchaseToken?.isEmpty == false else { throw CommerceError.invalid("purchase_token", .required) }
            guard productID?.isEmpty == false else { throw CommerceError.invalid("product_id", .required) }
        default:
            throw storeRefused
        }
    }
}
