/// How a Managed API authenticates, as its definition's `authType` spells it.
public enum ManagedApiAuthType: String, Sendable, CaseIterable {
    /// No credential.
    case none = "NONE"
    /// HTTP Basic; its secret lives on the server, so such an API is called `proxied`.
    case basic = "BASIC"
    /// `Authorization: Bearer`, with a token the device sets through `setBearerToken(_:forAPI:)` (or the server's, proxied).
    case bearerToken = "BEARER_TOKEN"
    /// An API key; its secret lives on the server, so such an API is called `proxied`.
    case apiKey = "API_KEY"
    /// OAuth 2.0 Authorization Code with PKCE, run on the device (`direct`) or by the server (`proxied`).
    case oauth2 = "OAUTH2"
}

/// The key-value pairs of one Managed API definition, without any auth setting.
public typealias DataMap = [String: String]
