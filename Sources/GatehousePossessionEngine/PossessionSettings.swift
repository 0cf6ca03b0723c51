import Foundation

/// A tenant's possession settings. A tenant without any is a production tenant with no
/// carrier check (every flow goes to the code).
public struct PossessionSettings: Sendable, Equatable, Codable {
    public enum Environment: String, Sendable, Codable, CaseIterable {
        /// Test mode allowed: outcomes by number rules, the fixed code, nothing sent.
        case sandbox
        case production
    }

    public var environment: Environment
    /// Whether Challenge returns the whole SSN instead of its last four digits.
    public var returnFullSsn: Bool
    /// The carrier check of mobile flows outside test mode; `nil` for none.
    public var carrier: CamaraSettings?

    public init(environment: Environment = .production, returnFullSsn: Bool = false, carrier: CamaraSettings? = nil) {
        self.environment = environment
        self.returnFullSsn = returnFullSsn
        self.carrier = carrier
    }
}

/// A mobile operator's CAMARA Number Verification (an OAuth 2.0 authorization code with
/// `prompt=none` that only the mobile network can authenticate, then
/// `POST {apiBase}/number-verification/v0/verify`). The client secret is kept sealed apart.
public struct CamaraSettings: Sendable, Equatable, Codable {
    public var authorizationEndpoint: URL
    public var tokenEndpoint: URL
    /// The API root before `/number-verification/v0/verify`.
    public var apiBase: URL
    public var clientId: String
    /// Where the operator sends the device back; the SDK stops there and reads the code.
    public var redirectUri: URL
    /// Whether the operator may be reached over http or on private addresses (local stand-ins).
    public var development: Bool

    public init(authorizationEndpoint: URL, tokenEndpoint: URL, apiBase: URL, clientId: String, redirectUri: URL, development: Bool = false) {
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.apiBase = apiBase
        self.clientId = clientId
        self.redirectUri = redirectUri
        self.development = development
    }
}
