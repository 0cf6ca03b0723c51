import GatehouseHTTP
import GatehousePossessionEngine
import GatehouseWire

/// Prove's client check: the bearer access token `POST /token` issued.
struct ProveClientAuthenticator: Authenticator {
    let engine: PossessionEngine
    let credential = Credential.proveClient.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> PossessionEngine.Caller {
        guard let bearer = request.bearerToken else { throw ProveError.unauthorized }
        return try await engine.caller(bearer: bearer)
    }
}

/// `POST /token` takes its client's credentials in its form (or as HTTP Basic): the grant
/// itself checks them, so the route passes everyone, counted per address.
struct ClientCredentialsGrant: Authenticator {
    let tokens: PerMinuteLimit
    let credential = Credential.clientCredentials.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> TokenForm {
        try tokens.count(context.clientAddress)
        return try TokenForm(request)
    }
}

/// A possession flow's bearer token (the one-time authToken, then the device token), counted
/// per client address: the tokens are long random values, the count only keeps floods off the
/// database. The engine checks the token itself on every step.
struct PossessionTokenAuthenticator: Authenticator {
    let calls: PerMinuteLimit
    let credential = Credential.possessionToken.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> String {
        try calls.count(context.clientAddress)
        guard let token = request.bearerToken else { throw ProveError.unauthorized }
        return token
    }
}
