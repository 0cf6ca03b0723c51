import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseHTTP

/// Who called the admin API.
struct AdminPrincipal: Sendable {}

/// Requires `Authorization: Bearer <admin token>`: an issued token, or the configured one.
struct AdminAuthentication: Middleware {
    let directory: TenantDirectory
    let configuredToken: String?

    func before(_ request: Request, context: inout RequestContext) throws {
        guard let token = request.bearerToken else { throw HTTPError.unauthorized() }
        if let configuredToken, constantTimeEquals(SHA256.hash(Data(token.utf8)), SHA256.hash(Data(configuredToken.utf8))) {
            context.principal = AdminPrincipal()
            return
        }
        guard try directory.verifyAdminToken(token) else { throw HTTPError.unauthorized("invalid admin token") }
        context.principal = AdminPrincipal()
    }
}
