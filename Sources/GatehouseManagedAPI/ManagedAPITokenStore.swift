import Foundation
import GatehouseWire

/// Where the device keeps the tokens of its `direct` Managed APIs between launches.
///
/// Named apart from `GatehouseAuth.TokenStore` so an app that imports both modules in one file has no ambiguity.
public protocol ManagedAPITokenStore: Sendable {
    /// The record stored under `key`, or nil.
    func tokens(for key: TokenKey) async throws -> StoredTokens?
    /// Replaces the record under `key` in one atomic write.
    func setTokens(_ tokens: StoredTokens, for key: TokenKey) async throws
    /// Forgets the record under `key`; forgetting a missing one succeeds.
    func removeTokens(for key: TokenKey) async throws
}

/// What identifies a token: the API and, for OAuth 2.0, the client it was granted to, so a changed
/// definition (another token endpoint, client or scope set) never reuses an old token.
public struct TokenKey: Hashable, Codable, Sendable {
    /// The Managed API's programmatic name.
    public let apiName: String
    /// The OAuth 2.0 token endpoint, or nil for a device-set bearer token.
    public let tokenEndpoint: String?
    /// The OAuth 2.0 client id, or nil for a device-set bearer token.
    public let clientId: String?
    /// The granted scopes, sorted and without duplicates.
    public let scopes: [String]

    /// A key; `scopes` are sorted and deduplicated here.
    public init(apiName: String, tokenEndpoint: String? = nil, clientId: String? = nil, scopes: [String] = []) {
        self.apiName = apiName
        self.tokenEndpoint = tokenEndpoint
        self.clientId = clientId
        self.scopes = Array(Set(scopes)).sorted()
    }

    /// One unambiguous string of the whole key (a JSON array), for stores that index by string.
    public var id: String {
        let parts: [String] = [tokenEndpoint == nil ? "bearer" : "oauth2", apiName, tokenEndpoint ?? "", clientId ?? ""] + scopes
        let data = (try? JSONEncoder().encode(parts)) ?? Data(parts.joined(separator: "\u{0}").utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The key of a device-set bearer token.
    static func bearer(_ name: String) -> TokenKey { TokenKey(apiName: name) }

    /// The key of a direct OAuth 2.0 definition's tokens.
    static func oauth2(_ name: String, _ client: ManagedAPIWire.OAuth2Client) -> TokenKey {
        TokenKey(apiName: name, tokenEndpoint: client.tokenEndpoint, clientId: client.clientId, scopes: client.scopes)
    }
}

/// One token set as stored: the whole record is written at once, so a rotated refresh token is never half-saved.
public struct StoredTokens: Codable, Equatable, Sendable {
    /// The access token sent as `Authorization: Bearer`.
    public var accessToken: String
    /// The refresh token, when the provider issued one.
    public var refreshToken: String?
    /// When the access token expires; nil when the provider did not say (treated as fresh, the 401 path is the backstop).
    public var expiresAt: Date?
    /// The granted scope as the provider last reported it.
    public var scope: String?
    /// The token type the provider reported (`Bearer`).
    public var tokenType: String?

    /// A token set.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil, scope: String? = nil, tokenType: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scope = scope
        self.tokenType = tokenType
    }

    /// Whether the access token is still usable at `now`, treating it as expired `leeway` seconds early (clock skew).
    public func isFresh(at now: Date, leeway: TimeInterval = 60) -> Bool {
        guard let expiresAt else { return true }
        return now < expiresAt.addingTimeInterval(-leeway)
    }
}

// Safe: `records` is only read and written under `lock`.
/// Tokens held in memory only: for tests, and for apps that want no persistence.
public final class MemoryManagedAPITokenStore: ManagedAPITokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var records: [TokenKey: StoredTokens]

    /// A store holding `records` to begin with.
    public init(_ records: [TokenKey: StoredTokens] = [:]) { self.records = records }

    /// The record under `key`.
    public func tokens(for key: TokenKey) async throws -> StoredTokens? { lock.withLock { records[key] } }

    /// Replaces the record under `key`.
    public func setTokens(_ tokens: StoredTokens, for key: TokenKey) async throws { lock.withLock { records[key] = tokens } }

    /// Forgets the record under `key`.
    public func removeTokens(for key: TokenKey) async throws { lock.withLock { records[key] = nil } }

    /// Every record, for tests.
    public var all: [TokenKey: StoredTokens] { lock.withLock { records } }
}
