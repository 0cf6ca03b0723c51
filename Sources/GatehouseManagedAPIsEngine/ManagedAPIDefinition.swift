import Foundation

/// One named third-party API of a tenant (seed 002): where it lives, how it authenticates,
/// what the app may read about it, and whether devices call it themselves or through the proxy.
public struct ManagedAPIDefinition: Sendable, Equatable {
    public enum AuthType: String, Sendable, CaseIterable { case none = "NONE", basic = "BASIC", bearerToken = "BEARER_TOKEN", apiKey = "API_KEY", oauth2 = "OAUTH2" }
    public enum Mode: String, Sendable, CaseIterable { case direct, proxied }

    /// Where an API key goes.
    public enum KeyPlacement: String, Sendable, CaseIterable { case header, query }

    /// An OAuth 2.0 grant the definition uses.
    public enum Grant: String, Sendable, CaseIterable { case authorizationCode = "authorization_code", clientCredentials = "client_credentials" }

    /// How a confidential client authenticates at the token endpoint (RFC 6749 §2.3.1).
    public enum TokenEndpointAuth: String, Sendable, CaseIterable { case clientSecretBasic = "client_secret_basic", clientSecretPost = "client_secret_post" }

    /// The auth settings; a secret is `nil` on input to keep the stored one, and never read back.
    public enum Auth: Sendable, Equatable {
        case none
        case basic(username: String, password: String?)
        case bearerToken(token: String?)
        case apiKey(placement: KeyPlacement, name: String, value: String?)
        case oauth2(OAuth2)

        public var type: AuthType {
            switch self {
            case .none: .none
            case .basic: .basic
            case .bearerToken: .bearerToken
            case .apiKey: .apiKey
            case .oauth2: .oauth2
            }
        }

        /// The static secret this auth carries, if one was given.
        public var secret: String? {
            switch self {
            case .none: nil
            case .basic(_, let password): password
            case .bearerToken(let token): token
            case .apiKey(_, _, let value): value
            case .oauth2(let settings): settings.clientSecret
            }
        }

        /// Whether this kind of auth has a static secret at all (an OAuth public client has none).
        var takesSecret: Bool { type != .none }

        /// The same settings with the secret replaced.
        func with(secret: String?) -> Auth {
            switch self {
            case .none: return .none
            case .basic(let username, _): return .basic(username: username, password: secret)
            case .bearerToken: return .bearerToken(token: secret)
            case .apiKey(let placement, let name, _): return .apiKey(placement: placement, name: name, value: secret)
            case .oauth2(var settings):
                settings.clientSecret = secret
                return .oauth2(settings)
            }
        }
    }

    public struct OAuth2: Sendable, Equatable {
        public var grant: Grant
        public var authorizationEndpoint: URL?
        public var tokenEndpoint: URL
        public var clientID: String
        public var clientSecret: String?
        public var scopes: [String]
        public var authorizationParams: [String: String]
        public var rotatesRefreshTokens: Bool
        public var tokenEndpointAuth: TokenEndpointAuth

        public init(
            grant: Grant, authorizationEndpoint: URL?, tokenEndpoint: URL, clientID: String, clientSecret: String? = nil, scopes: [String] = [],
            authorizationParams: [String: String] = [:], rotatesRefreshTokens: Bool = false, tokenEndpointAuth: TokenEndpointAuth = .clientSecretBasic
        ) {
            self.grant = grant
            self.authorizationEndpoint = authorizationEndpoint
            self.tokenEndpoint = tokenEndpoint
            self.clientID = clientID
            self.clientSecret = clientSecret
            self.scopes = scopes
            self.authorizationParams = authorizationParams
            self.rotatesRefreshTokens = rotatesRefreshTokens
            self.tokenEndpointAuth = tokenEndpointAuth
        }
    }

    /// The programmatic name, unique per tenant and URL-safe.
    public var name: String
    public var displayName: String
    public var baseURL: URL
    public var auth: Auth
    public var mode: Mode
    /// Allows `http` and private, loopback and link-local addresses (a local or staging API).
    public var development: Bool
    /// The seed's DataMap pairs beyond the definition's own fields.
    public var metadata: [String: String]
    /// Whether a static secret is stored (filled in when read back; the secret itself never is).
    public var hasSecret: Bool
    public var updatedAt: Date?

    /// Where the secret goes and how: a stored secret is kept by a save only while this is unchanged.
    var destination: [String] {
        let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        var parts = [base?.scheme?.lowercased() ?? "", base?.host?.lowercased() ?? "", base?.port.map(String.init) ?? "", "\(development)"]
        switch auth {
        case .none, .bearerToken: break
        case .basic(let username, _): parts.append(username)
        case .apiKey(let placement, let name, _): parts += [placement.rawValue, name]
        case .oauth2(let settings): parts += [settings.tokenEndpoint.absoluteString, settings.clientID, settings.tokenEndpointAuth.rawValue]
        }
        return parts
    }

    public init(
        name: String, displayName: String, baseURL: URL, auth: Auth, mode: Mode, development: Bool = false, metadata: [String: String] = [:],
        hasSecret: Bool = false, updatedAt: Date? = nil
    ) {
        self.name = name
        self.displayName = displayName
        self.baseURL = baseURL
        self.auth = auth
        self.mode = mode
        self.development = development
        self.metadata = metadata
        self.hasSecret = hasSecret
        self.updatedAt = updatedAt
    }
}
