import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// The Datacove sign-in check: the app's platform key (`x-api-key`) names its tenant and
/// platform; a key without a platform (an operator's) does not sign anyone in.
struct PlatformKeyAuthenticator: Authenticator {
    struct App: Sendable {
        let tenantID: String
        let platform: String?
    }

    let directory: TenantDirectory
    let credential = Credential.apiKey.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> App {
        guard let presented = request.headers["x-api-key"], let key = try await directory.authenticate(apiKey: presented), key.platform != nil
        else { throw DatacoveError(status: 401, code: "API_KEY_INVALID", message: "The API key is missing or not valid.") }
        return App(tenantID: key.tenantId, platform: key.platform)
    }
}
