/// What sign-in, activate and refresh return: an access token, a refresh token and the
/// access token's lifetime in seconds.
public struct TokenPair: Sendable, Equatable {
    public let accessToken: String
    public let refreshToken: String
    public let expiresIn: Int

    public init(accessToken: String, refreshToken: String, expiresIn: Int) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}

/// A session begun inside a transaction, with the sessions it pushed past the device limit:
/// they are forgotten on this node once the transaction has committed.
struct StartedSession: Sendable {
    let pair: TokenPair
    let evicted: [String]

    /// The pair, after telling this node's session cache what the commit ended.
    func committed(to sessions: SessionService) -> TokenPair {
        sessions.forgetEnded(evicted)
        return pair
    }
}

/// Who an access token speaks for, once its session was found alive.
public struct SessionPrincipal: Sendable, Equatable {
    public let tenantId: String
    public let accountId: String
    public let sessionId: String
    /// The account status the token was issued with (`CREATED`, `ACTIVE`).
    public let status: String
    public let generation: Int
    /// The platform of the app key the session signed in with (`IOS`, `ANDROID`, `WEB`), nil when the key had none.
    public let platform: String?
}

/// The device a session was started from, for the "signed-in devices" list.
public struct DeviceInfo: Sendable, Equatable {
    public var name: String?
    public var platform: String?
    public var appVersion: String?

    public init(name: String? = nil, platform: String? = nil, appVersion: String? = nil) {
        self.name = name
        self.platform = platform
        self.appVersion = appVersion
    }
}
