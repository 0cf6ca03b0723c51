import Foundation

/// The non-secret half of a definition's auth, as the `auth_settings` column keeps it; the
/// secret lives sealed beside it.
struct StoredAuth: Codable {
    var username: String?
    var placement: String?
    var keyName: String?
    var grant: String?
    var authorizationEndpoint: String?
    var tokenEndpoint: String?
    var clientId: String?
    var scopes: [String]?
    var authorizationParams: [String: String]?
    var rotatesRefreshTokens: Bool?
    var tokenEndpointAuth: String?

    init(_ auth: ManagedAPIDefinition.Auth) {
        switch auth {
        case .none, .bearerToken: break
        case .basic(let username, _): self.username = username
        case .apiKey(let placement, let name, _):
            self.placement = placement.rawValue
            keyName = name
        case .oauth2(let settings):
            grant = settings.grant.rawValue
            authorizationEndpoint = settings.authorizationEndpoint?.absoluteString
            tokenEndpoint = settings.tokenEndpoint.absoluteString
            clientId = settings.clientID
            scopes = settings.scopes
            authorizationParams = settings.authorizationParams
            rotatesRefreshTokens = settings.rotatesRefreshTokens
            tokenEndpointAuth = settings.tokenEndpointAuth.rawValue
        }
    }

    /// The auth of `type`, with its secret left out.
    func auth(_ type: ManagedAPIDefinition.AuthType) throws -> ManagedAPIDefinition.Auth {
        switch type {
        case .none: return .none
        case .basic: return .basic(username: username ?? "", password: nil)
        case .bearerToken: return .bearerToken(token: nil)
        case .apiKey:
            return .apiKey(placement: placement.flatMap(ManagedAPIDefinition.KeyPlacement.init) ?? .header, name: keyName ?? "", value: nil)
        case .oauth2:
            guard let grant = grant.flatMap(ManagedAPIDefinition.Grant.init), let token = tokenEndpoint.flatMap(URL.init(string:)),
                let clientId
            else { throw ManagedAPIError.credentialUnavailable(.storedOAuthIncomplete) }
            return .oauth2(.init(
                grant: grant, authorizationEndpoint: authorizationEndpoint.flatMap(URL.init(string:)), tokenEndpoint: token, clientID: clientId,
                scopes: scopes ?? [], authorizationParams: authorizationParams ?? [:], rotatesRefreshTokens: rotatesRefreshTokens ?? false,
                tokenEndpointAuth: tokenEndpointAuth.flatMap(ManagedAPIDefinition.TokenEndpointAuth.init) ?? .clientSecretBasic))
        }
    }
}
