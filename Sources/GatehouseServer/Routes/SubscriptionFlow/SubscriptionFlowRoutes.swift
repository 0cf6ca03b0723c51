import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// The SubscriptionFlow dialect (seed 003) on the commerce engine: backend calls with a tenant
/// server key as Bearer token, app calls with an account token pair.
enum SubscriptionFlowRoutes {
    static func register(on router: Router, commerce: CommerceEngine, directory: TenantDirectory, clientPerMinute: Int, logger: Logger) {
        let endpoints = SubscriptionFlowWire.Endpoints.self
        router.renderErrors(under: endpoints.prefix) { error, _, context in SubscriptionFlowError.render(error, context: context, logger: logger) }
        let backends = ServerKeyAuthenticator(directory: directory)
        let calls = PerMinuteLimit(name: "sf-client", perMinute: clientPerMinute, environment: commerce.environment) { retryAfter in
            SubscriptionFlowError.rateLimited(retryAfter: max(1, retryAfter))
        }
        let customers = AccountTokenAuthenticator(commerce: commerce, calls: calls)
        @Sendable func outcome(_ outcome: CustomerPurchaseOutcome) throws -> Response {
            switch outcome {
            case .linked(let list):
                return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.link(list, sandbox: false))
            case .sandbox(let list):
                return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.link(list, sandbox: true))
            case .conflict: throw SubscriptionFlowError.taggedForAnotherAccount
            case .refused: throw SubscriptionFlowError.purchaseRefused
            }
        }
        router.on(endpoints.issueAccountToken, backends) { request, _, backend in
            let body = try SubscriptionFlowBody.accountTokenRequest(request)
            let issued = try await commerce.issueAccountToken(tenantID: backend.tenantID, customerID: body.customerId, rotate: body.rotate ?? false)
            return try SubscriptionFlowJSON.success(SubscriptionFlowJSON.token(issued), status: issued.reused ? 200 : 201)
        }
        router.on(endpoints.revokeAccountToken, backends) { _, context, backend in
            try SubscriptionFlowJSON.success(
                SubscriptionFlowJSON.token(try await commerce.revokeAccountToken(tenantID: backend.tenantID, token: context.parameter("token"))))
        }
        router.on(endpoints.registerPurchase, backends) { request, _, backend in
            let body = try SubscriptionFlowBody.customerPurchase(request)
            if body.store == "google" {
                return try outcome(try await commerce.linkCustomerGooglePurchase(
                    tenantID: backend.tenantID, customerID: body.customerId, productID: body.productId ?? "", token: body.purchaseToken ?? ""))
            }
            return try outcome(try await commerce.registerCustomerPurchase(
                tenantID: backend.tenantID, customerID: body.customerId, signedTransaction: body.signedTransaction ?? ""))
        }
        router.on(endpoints.customerEntitlements, backends) { _, context, backend in
            try SubscriptionFlowJSON.success(SubscriptionFlowJSON.entitlements(
                try await commerce.customerEntitlements(tenantID: backend.tenantID, customerID: context.parameter("customerId"))))
        }
        router.on(endpoints.reportPurchase, customers) { request, _, customer in
            let body = try SubscriptionFlowBody.purchaseReport(request)
            if body.store == "google" {
                return try outcome(try await commerce.linkCustomerGooglePurchase(
                    tenantID: customer.tenantID, customerID: customer.customerID, productID: body.productId ?? "", token: body.purchaseToken ?? ""))
            }
            return try outcome(try await commerce.reportCustomerPurchase(
                tenantID: customer.tenantID, customerID: customer.customerID, signedTransaction: body.signedTransaction ?? ""))
        }
        router.on(endpoints.clientEntitlements, customers) { _, _, customer in
            try SubscriptionFlowJSON.success(SubscriptionFlowJSON.entitlements(
                try await commerce.customerEntitlements(tenantID: customer.tenantID, customerID: customer.customerID)))
        }
    }
}
