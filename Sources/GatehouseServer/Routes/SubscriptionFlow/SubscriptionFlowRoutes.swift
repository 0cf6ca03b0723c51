import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// The SubscriptionFlow dialect (seed 003) on the commerce engine: backend calls with a tenant
/// server key as Bearer token, app calls with an account token pair.
enum SubscriptionFlowRoutes {
    static func register(on router: Router, commerce: CommerceEngine, directory: TenantDirectory, clientPerMinute: Int, logger: Logger) {
        let prefix = "/api/v1/mobile-stores"
        router.renderErrors(under: prefix) { error, _, _ in
            let code = error.isFieldValidation || error.code == "invalid_body" ? CommerceError.Code.validationFailed.rawValue : error.code.uppercased()
            var response = SubscriptionFlowJSON.failure(error.status, code: code, message: error.message)
            for (name, value) in error.headers { response.headers.set(name, value) }
            return response
        }
        let unauthorized = SubscriptionFlowJSON.failure(401, code: "UNAUTHENTICATED", message: "The credentials are missing or not valid.")
        /// One answer for every refusal, so no caller learns whether a purchase exists.
        let refused = SubscriptionFlowJSON.failure(422, code: "PURCHASE_REFUSED", message: "This purchase cannot be linked to this account.")
        let conflict = SubscriptionFlowJSON.failure(409, code: "PURCHASE_TAGGED_FOR_ANOTHER_ACCOUNT",
                                                    message: "This purchase was made with another account token.")

        func handler(_ body: @escaping @Sendable (Request, RequestContext) async throws -> Response) -> Handler {
            .async { request, context in
                do {
                    return try await body(request, context)
                } catch let error as CommerceError {
                    let status = error.code == .notFound ? 404 : 400
                    return SubscriptionFlowJSON.failure(status, code: error.code.rawValue, message: error.message)
                } catch is AccountTokenRefused {
                    return unauthorized
                } catch let error as PurchaseError where error.code == .storeUnavailable {
                    return SubscriptionFlowJSON.failure(503, code: error.code.rawValue, message: error.message)
                } catch {
                    logger.error("subscriptionflow API error in request \(plain: context.requestID): \(String(reflecting: error))")
                    return SubscriptionFlowJSON.failure(500, code: "INTERNAL_ERROR", message: "Something went wrong (request \(context.requestID)).")
                }
            }
        }
        /// The tenant of a backend call: a server key (one without a platform) as Bearer token.
        func backendTenant(_ request: Request) async throws -> String? {
            guard let presented = request.bearerToken, let key = try await directory.authenticate(apiKey: presented), key.platform == nil else { return nil }
            return key.tenantId
        }
        func outcome(_ outcome: CustomerPurchaseOutcome) throws -> Response {
            switch outcome {
            case .linked(let list):
                return try SubscriptionFlowJSON.success(.object(["linked": .bool(true), "sandbox": .bool(false), "entitlements": SubscriptionFlowJSON.entitlements(list)]))
            case .sandbox(let list):
                return try SubscriptionFlowJSON.success(.object(["linked": .bool(false), "sandbox": .bool(true), "entitlements": SubscriptionFlowJSON.entitlements(list)]))
            case .conflict: return conflict
            case .refused: return refused
            }
        }
        func signedTransaction(_ body: StoreBody) throws -> String {
            guard try body.string("store") == "apple" else { throw CommerceError(.validationFailed, "store must be apple") }
            guard let signed = try body.string("signed_transaction"), !signed.isEmpty else {
                throw CommerceError(.validationFailed, "signed_transaction is required")
            }
            return signed
        }

        router.group(prefix) { stores in
            stores.post("/account-tokens", handler { request, _ in
                guard let tenantID = try await backendTenant(request) else { return unauthorized }
                let body = try StoreBody(request, allowed: ["customer_id", "rotate"])
                guard let customer = try body.string("customer_id") else { throw CommerceError(.validationFailed, "customer_id is required") }
                let issued = try await commerce.issueAccountToken(tenantID: tenantID, customerID: customer, rotate: try body.bool("rotate") ?? false)
                return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.token(issued), status: issued.reused ? 200 : 201)
            })
            stores.post("/account-tokens/:token/revoke", handler { request, context in
                guard let tenantID = try await backendTenant(request) else { return unauthorized }
                return try SubscriptionFlowJSON.success(
                    SubscriptionFlowJSON.token(try await commerce.revokeAccountToken(tenantID: tenantID, token: context.parameter("token"))))
            })
            stores.post("/purchases", handler { request, _ in
                guard let tenantID = try await backendTenant(request) else { return unauthorized }
                let body = try StoreBody(request, allowed: ["customer_id", "store", "signed_transaction"])
                guard let customer = try body.string("customer_id") else { throw CommerceError(.validationFailed, "customer_id is required") }
                return try outcome(try await commerce.registerCustomerPurchase(
                    tenantID: tenantID, customerID: customer, signedTransaction: try signedTransaction(body)))
            })
            stores.get("/customers/:customerId/entitlements", handler { request, context in
                guard let tenantID = try await backendTenant(request) else { return unauthorized }
                return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.entitlements(
                    try await commerce.customerEntitlements(tenantID: tenantID, customerID: context.parameter("customerId"))))
            })

            /// The app's pair, counted against the per-token limit.
            func client(_ request: Request) async throws -> (tenantID: String, customerID: String)? {
                guard let token = request.headers["X-SF-Account-Token"], let secret = request.headers["X-SF-Client-Secret"] else { return nil }
                let caller = try await commerce.authenticateAccountToken(token, secret: secret)
                if let wait = commerce.countClientRequest(token: token, perMinute: clientPerMinute) {
                    throw TooManyRequests(retryAfter: wait)
                }
                return caller
            }
            func limited(_ body: @escaping @Sendable (Request) async throws -> Response) -> Handler {
                handler { request, _ in
                    do {
                        return try await body(request)
                    } catch let limit as TooManyRequests {
                        return SubscriptionFlowJSON.failure(429, code: "RATE_LIMITED", message: "Too many requests. Try again later.", retryAfter: limit.retryAfter)
                    }
                }
            }
            stores.post("/client/purchases", limited { request in
                guard let caller = try await client(request) else { return unauthorized }
                let body = try StoreBody(request, allowed: ["store", "signed_transaction"])
                return try outcome(try await commerce.reportCustomerPurchase(
                    tenantID: caller.tenantID, customerID: caller.customerID, signedTransaction: try signedTransaction(body)))
            })
            stores.get("/client/entitlements", limited { request in
                guard let caller = try await client(request) else { return unauthorized }
                return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.entitlements(
                    try await commerce.customerEntitlements(tenantID: caller.tenantID, customerID: caller.customerID)))
            })
        }
    }

    private struct TooManyRequests: Error { let retryAfter: Int }
}
