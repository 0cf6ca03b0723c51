import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// A backend's call: a tenant's server key (one without a platform) as bearer token.
struct ServerKeyAuthenticator: Authenticator {
    struct Backend: Sendable { let tenantID: String }

    let directory: TenantDirectory
    let credential = Credential.serverKey.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> Backend {
        guard let presented = request.bearerToken, let key = try await directory.authenticate(apiKey: presented), key.platform == nil else {
            throw SubscriptionFlowError.unauthenticated
        }
        return Backend(tenantID: key.tenantId)
    }
}

/// An app's call: a customer's account token with the client secret, each token counted
/// against its per-minute allowance.
struct AccountTokenAuthenticator: Authenticator {
    struct Customer: Sendable {
        let tenantID: String
        let customerID: String
    }

    let commerce: CommerceEngine
    let calls: PerMinuteLimit
    let credential = Credential.accountToken.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> Customer {
        guard let token = request.headers["X-SF-Account-Token"], let secret = request.headers["X-SF-Client-Secret"] else {
            throw SubscriptionFlowError.unauthenticated
        }
        let caller = try await commerce.authenticateAccountToken(token, secret: secret)
        try calls.count(token.lowercased())
        return Customer(tenantID: caller.tenantID, customerID: caller.customerID)
    }
}
