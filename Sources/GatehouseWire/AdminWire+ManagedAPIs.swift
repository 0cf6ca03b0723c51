import Foundation

extension AdminWire {
    /// A managed API definition as `PUT /admin/v1/tenants/:id/managed-apis/:name` takes it and
    /// the admin API answers it. Secrets (`basic.password`, `bearerToken`, `apiKey.value`,
    /// `oauth2.clientSecret`) are write-only: answers leave them out and say `hasSecret`; a PUT
    /// that leaves one out keeps the stored one.
    public struct ManagedAPIDefinition: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case name, displayName, baseUrl, authType, mode, development, metadata, basic, bearerToken, apiKey, oauth2, hasSecret, updatedAt
        }
        /// In a PUT, the path's name is used when this is left out.
        public var name: String?
        public var displayName: String
        public var baseUrl: String
        /// `NONE`, `BASIC`, `BEARER_TOKEN`, `API_KEY` or `OAUTH2`.
        public var authType: String
        /// `direct` or `proxied`.
        public var mode: String
        /// Allows http and private addresses (a local or staging API).
        public var development: Bool?
        public var metadata: [String: String]?
        public var basic: Basic?
        /// Write-only.
        public var bearerToken: String?
        public var apiKey: APIKey?
        public var oauth2: OAuth2?
        /// In answers: whether a secret is stored.
        public var hasSecret: Bool?
        /// In answers: when it was last saved (RFC 3339).
        public var updatedAt: String?

        /// A definition.
        public init(
            name: String?, displayName: String, baseUrl: String, authType: String, mode: String, development: Bool? = nil,
            metadata: [String: String]? = nil, basic: Basic? = nil, bearerToken: String? = nil, apiKey: APIKey? = nil, oauth2: OAuth2? = nil,
            hasSecret: Bool? = nil, updatedAt: String? = nil
        ) {
            self.name = name
            self.displayName = displayName
            self.baseUrl = baseUrl
            self.authType = authType
            self.mode = mode
            self.development = development
            self.metadata = metadata
            self.basic = basic
            self.bearerToken = bearerToken
            self.apiKey = apiKey
            self.oauth2 = oauth2
            self.hasSecret = hasSecret
            self.updatedAt = updatedAt
        }

        /// HTTP Basic: the password is write-only.
        public struct Basic: Codable, Sendable, Equatable {
            public var username: String
            public var password: String?
            /// Basic settings.
            public init(username: String, password: String? = nil) {
                self.username = username
                self.password = password
            }
        }

        /// An API key in a header or a query parameter: the value is write-only.
        public struct APIKey: Codable, Sendable, Equatable {
            /// `header` or `query`.
            public var placement: String
            public var name: String
            public var value: String?
            /// Key settings.
            public init(placement: String, name: String, value: String? = nil) {
                self.placement = placement
                self.name = name
                self.value = value
            }
        }

        /// OAuth 2.0: the client secret is write-only.
        public struct OAuth2: Codable, Sendable, Equatable {
            /// `authorization_code` (direct, with PKCE) or `client_credentials` (proxied).
            public var grant: String
            public var authorizationEndpoint: String?
            public var tokenEndpoint: String
            public var clientId: String
            public var clientSecret: String?
            public var scopes: [String]?
            public var authorizationParams: [String: String]?
            public var rotatesRefreshTokens: Bool?
            /// `client_secret_basic` (the default) or `client_secret_post`.
            public var tokenEndpointAuthMethod: String?
            /// OAuth 2.0 settings.
            public init(
                grant: String, authorizationEndpoint: String? = nil, tokenEndpoint: String, clientId: String, clientSecret: String? = nil,
                scopes: [String]? = nil, authorizationParams: [String: String]? = nil, rotatesRefreshTokens: Bool? = nil,
                tokenEndpointAuthMethod: String? = nil
            ) {
                self.grant = grant
                self.authorizationEndpoint = authorizationEndpoint
                self.tokenEndpoint = tokenEndpoint
                self.clientId = clientId
                self.clientSecret = clientSecret
                self.scopes = scopes
                self.authorizationParams = authorizationParams
                self.rotatesRefreshTokens = rotatesRefreshTokens
                self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
            }
        }
    }
}
