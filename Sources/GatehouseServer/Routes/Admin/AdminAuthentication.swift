import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseHTTP
import GatehouseWire

/// Who called the admin API.
struct AdminPrincipal: Sendable {}

/// Requires `Authorization: Bearer <admin token>`: an issued token, or the configured one
/// (compared in constant time by their digests).
struct AdminAuthentication: Authenticator {
    let directory: TenantDirectory
    let configuredToken: String?
    let credential = Credential.admin.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> AdminPrincipal {
        guard let token = request.bearerToken else { throw HTTPError.unauthorized() }
        if let configuredToken, constantTimeEquals(SHA256.hash(Data(token.utf8)), SHA256.hash(Data(configuredToken.utf8))) {
            return AdminPrincipal()
        }
        guard try await directory.verifyAdminToken(token) else { throw HTTPError.unauthorized("invalid admin token") }
        return AdminPrincipal()
    }
}
