import Foundation
import GatehouseRules

/// The managed APIs a signed-in device reads (`GET /api/managed-apis/v1` and `/:name`): the
/// definitions without any auth setting (seed 002: "Authentication settings are not
/// included"), plus what a device needs to run a `direct` OAuth 2.0 consent itself.
public enum ManagedAPIWire {
    /// `NONE`, `BASIC`, `BEARER_TOKEN`, `API_KEY` or `OAUTH2` (seed 002, `ManagedApiAuthType`).
    public static let authTypes = ["NONE", "BASIC", "BEARER_TOKEN", "API_KEY", "OAUTH2"]
    /// The DataMap keys a definition's own fields take; metadata cannot use them.
    public static let reservedKeys = ManagedAPIRules.reservedMetadataKeys

    /// One definition as a device sees it.
    public struct Definition: Codable, Sendable, Equatable {
        /// The programmatic name, unique per tenant: `[a-z0-9][a-z0-9_-]{0,63}`.
        public var name: String
        public var displayName: String
        /// Where `direct` calls go; a `proxied` definition's calls go to Gatehouse instead.
        public var baseUrl: String
        public var authType: String
        /// `direct` (the device calls `baseUrl`) or `proxied` (the device calls Gatehouse).
        public var mode: String
        /// Free-form pairs the app may read; never a secret.
        public var metadata: [String: String]
        /// Only for a `direct` `OAUTH2` definition: the public client the device runs.
        public var oauth2: OAuth2Client?

        /// A definition.
        public init(
            name: String, displayName: String, baseUrl: String, authType: String, mode: String, metadata: [String: String] = [:],
            oauth2: OAuth2Client? = nil
        ) {
            self.name = name
            self.displayName = displayName
            self.baseUrl = baseUrl
            self.authType = authType
            self.mode = mode
            self.metadata = metadata
            self.oauth2 = oauth2
        }

        /// The seed's DataMap: the definition's own fields and its metadata, no auth setting.
        public var dataMap: [String: String] {
            var map = metadata
            map["name"] = name
            map["displayName"] = displayName
            map["baseUrl"] = baseUrl
            map["authType"] = authType
            map["mode"] = mode
            return map
        }
    }

    /// A public OAuth 2.0 client (authorization code with PKCE S256): never a secret.
    public struct OAuth2Client: Codable, Sendable, Equatable {
        public var authorizationEndpoint: String
        public var tokenEndpoint: String
        public var clientId: String
        public var scopes: [String]
        /// Extra query parameters of the authorization request (`access_type=offline`, …).
        public var authorizationParams: [String: String]
        /// Whether the token endpoint sends a new refresh token with each refresh.
        public var rotatesRefreshTokens: Bool

        /// A client.
        public init(
            authorizationEndpoint: String, tokenEndpoint: String, clientId: String, scopes: [String] = [],
            authorizationParams: [String: String] = [:], rotatesRefreshTokens: Bool = false
        ) {
            self.authorizationEndpoint = authorizationEndpoint
            self.tokenEndpoint = tokenEndpoint
            self.clientId = clientId
            self.scopes = scopes
            self.authorizationParams = authorizationParams
            self.rotatesRefreshTokens = rotatesRefreshTokens
        }
    }

    /// `GET /api/managed-apis/v1`, sent with an `ETag`; `If-None-Match` gets a 304.
    public struct DefinitionList: Codable, Sendable, Equatable {
        public var managedApis: [Definition]

        /// A list.
        public init(managedApis: [Definition]) { self.managedApis = managedApis }
    }

    /// Gatehouse's own refusals on `/api/managed-apis` carry this header, so a 401 or 429 of the
    /// proxy itself is told apart from the same status passed back from the upstream.
    public static let originHeader = "X-Gatehouse-Error"
}
