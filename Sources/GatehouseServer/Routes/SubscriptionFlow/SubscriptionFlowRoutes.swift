import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP

/// The SubscriptionFlow dialect (seed 003) on the commerce engine: backend calls with a tenant
/// server key as Bearer token, app calls with an account token pair.
enum SubscriptionFlowRoutes {
    static func register(on router: Router, commerce: CommerceEngine, directory: TenantDirectory, clientPerMinute: Int, logger: Logger) {
        let prefix = "/api/v1/mobile-stores"
        router.renderErrors(under: prefix) { error, _, context in SubscriptionFlowError.render(error, context: context, logger: logger) }

        /// The tenant of a backend call: a server key (one without a platform) as Bearer token.
        func backendTenant(_ request: Request) async throws -> String {
            guard let presented = request.bearerToken, let key = try await directory.authenticate(apiKey: presented), key.platform == nil else {
                throw SubscriptionFlowError.unauthenticated
            }
            return key.tenantId
        }
        func outcome(_ outcome: CustomerPurchaseOutcome) throws -> Response {
            switch outcome {
            case .linked(let list):
                return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.link(list, sandbox: false))
            case .sandbox(let list):
                return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.link(list, sandbox: true))
            case .conflict: throw SubscriptionFlowError.taggedForAnotherAccount
            case .refused: throw SubscriptionFlowError.purchaseRefused
            }
        }
        router.group(prefix) { stores in
            stores.post("/account-tokens", .async { request, _ in
                let tenantID = try await backendTenant(request)
                let body = try SubscriptionFlowBody.accountTokenRequest(request)
                let issued = try await commerce.issueAccountToken(tenantID: tenantID, customerID: body.customerId, rotate: body.rotate ?? false)
                return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.token(issued), status: issued.reused ? 200 : 201)
            })
            stores.post("/account-tokens/:token/revoke", .async { request, context in
                let tenantID = try await backendTenant(request)
                return try SubscriptionFlowJSON.success(
                    SubscriptionFlowJSON.token(try await commerce.revokeAccountToken(tenantID: tenantID, token: context.parameter("token"))))
            })
            stores.post("/purchases", .async { request, _ in
                let tenantID = try await backendTenant(request)
                let body = try SubscriptionFlowBody.customerPurchase(request)
                return try outcome(try await commerce.registerCustomerPurchase(
                    tenantID: tenantID, customerID: body.customerId, signedTransaction: body.signedTransaction))
            })
            stores.get("/customers/:customerId/entitlements", .async { request, context in
                let tenantID = try await backendTenant(request)
                return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.entitlements(
                    try await commerce.customerEntitlements(tenantID: tenantID, customerID: context.parameter("customerId"))))
            })

            /// The app's pair, counted against the per-token limit.
            func client(_ request: Request) async throws -> (tenantID: String, customerID: String) {
                guard let token = request.headers["X-SF-Account-Token"], let secret = request.headers["X-SF-Client-Secret"] else {
                    throw SubscriptionFlowError.unauthenticated
                }
                let caller = try await commerce.authenticateAccountToken(token, secret: secret)
                if let wait = commerce.countClientRequest(token: token, perMinute: clientPerMinute) {
                    throw SubscriptionFlowError.rateLimited(retryAfter: wait)
                }
                return caller
            }
            stores.post("/client/purchases", .async { request, _ in
                let caller = try await client(request)
                let body = try SubscriptionFlowBody.purchaseReport(request)
                return try outcome(try await commerce.reportCustomerPurchase(
                    tenantID: caller.tenantID, customerID: caller.customerID, signedTransaction: body.signedTransaction))
            })
            stores.get("/client/entitlements", .async { request, _ in
                let caller = try await client(request)
                return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.entitlements(
                    try await commerce.customerEntitlements(tenantID: caller.tenantID, customerID: caller.customerID)))
            })
        }
    }
}
