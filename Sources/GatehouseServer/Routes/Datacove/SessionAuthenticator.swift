import GatehouseAccountsEngine
import GatehouseHTTP
import GatehouseWire

/// The Datacove session check: the bearer access token (and the app version it was issued
/// for) names the signed-in user.
struct SessionAuthenticator: Authenticator {
    let accounts: AccountsEngine
    let credential = Credential.session.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> SessionPrincipal {
        try await authenticate(headers: request.headers)
    }

    /// The same check on a head alone (an upload is admitted before its body is read).
    func authenticate(headers: HTTPHeaders) async throws -> SessionPrincipal {
        guard let token = Request.bearerToken(headers) else { throw SessionError(.tokenInvalid) }
        return try await accounts.sessions.authenticate(accessToken: token, appVersion: headers["X-App-Version"])
    }
}
