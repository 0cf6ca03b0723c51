import GatehouseCommerceEngine
import GatehouseHTTP
import GatehouseWire

/// SubscriptionFlow request bodies, read into the shared wire types by their own coding keys;
/// unknown keys are refused.
enum SubscriptionFlowBody {
    static func accountTokenRequest(_ request: Request) throws -> SubscriptionFlowWire.AccountTokenRequest {
        typealias Keys = SubscriptionFlowWire.AccountTokenRequest.CodingKeys
        let body = try StoreBody(request, keys: Keys.self)
        guard let customer = try body.string(Keys.customerId) else { throw CommerceError.invalid("customer_id", .required) }
        return SubscriptionFlowWire.AccountTokenRequest(customerId: customer, rotate: try body.bool(Keys.rotate))
    }

    static func customerPurchase(_ request: Request) throws -> SubscriptionFlowWire.CustomerPurchase {
        typealias Keys = SubscriptionFlowWire.CustomerPurchase.CodingKeys
        let body = try StoreBody(request, keys: Keys.self)
        guard let customer = try body.string(Keys.customerId) else { throw CommerceError.invalid("customer_id", .required) }
        return SubscriptionFlowWire.CustomerPurchase(
            customerId: customer, signedTransaction: try signedTransaction(body, store: Keys.store, transaction: Keys.signedTransaction))
    }

    static func purchaseReport(_ request: Request) throws -> SubscriptionFlowWire.PurchaseReport {
        typealias Keys = SubscriptionFlowWire.PurchaseReport.CodingKeys
        let body = try StoreBody(request, keys: Keys.self)
        return SubscriptionFlowWire.PurchaseReport(signedTransaction: try signedTransaction(body, store: Keys.store, transaction: Keys.signedTransaction))
    }

    /// `store` must be `apple` and `signed_transaction` a non-empty string.
    private static func signedTransaction(_ body: StoreBody, store: some CodingKey, transaction: some CodingKey) throws -> String {
        guard try body.string(store) == "apple" else { throw CommerceError.invalid("store", .oneOf(["apple"])) }
        guard let signed = try body.string(transaction), !signed.isEmpty else {
            throw CommerceError.invalid("signed_transaction", .required)
        }
        return signed
    }
}
