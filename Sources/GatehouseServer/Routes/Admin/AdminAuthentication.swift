import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseHTTP

/// Who called the admin API.
struct AdminPrincipal: Sendable {}

/// Requires `Authorization: Bearer <admin token>`: an issued token, or the configured one.
/// The issued-token check reads the database, so it runs before async handlers only.
struct AdminAuthentication: Middleware {
    let directory: TenantDirectory
    let configuredToken: String?

    var waits: Bool { true }

    func beforeAsync(_ request: Request, context: inout RequestContext) async throws {
        guard let token = request.bearerToken else { throw HTTPError.unauthorized() }
        if let configuredToken, constantTimeEquals(SHA256.hash(Data(token.utf8)), SHA256.hash(Data(configuredToken.utf8))) {
            context.principal = AdminPrincipal()
            return
        }
        guard try await directory.verifyAdminToken(token) else { throw HTTPError.unauthorized("invalid admin token") }
        context.principal = AdminPrincipal()
    }
}
