extension DatacoveWire {
    /// What sign-in, activate and refresh answer: `{accessToken, refreshToken, expiresIn}`.
    public struct TokenPair: Codable, Sendable, Equatable {
        /// The bearer token for authenticated calls.
        public var accessToken: String
        /// The single-use token that buys the next pair.
        public var refreshToken: String
        /// Seconds the access token lives.
        public var expiresIn: Int

        /// A token pair.
        public init(accessToken: String, refreshToken: String, expiresIn: Int) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
            self.expiresIn = expiresIn
        }
    }

    /// `{"success": true}` of request-otp.
    public struct Success: Codable, Sendable, Equatable {
        /// Always `true`.
        public var success: Bool
        /// A success answer.
        public init(success: Bool = true) { self.success = success }
    }

    /// `GET users/v1/profile` and its PATCH: every key present, nulls written out.
    public struct Profile: Codable, Sendable, Equatable {
        /// The display name; `null` until set.
        @ExplicitNull public var name: String?
        /// The phone number in digits without `+`; `null` for an email account.
        @ExplicitNull public var phone: String?
        /// The email address; `null` for a phone account.
        @ExplicitNull public var email: String?
        /// ISO 3166 country of the phone number; `null` when unknown.
        @ExplicitNull public var country: String?
        /// IANA time zone; `null` until set.
        @ExplicitNull public var timezone: String?
        /// `CREATED` or `ACTIVE`.
        public var status: String
        /// Credits by wallet kind (`WALLET`, `TRIAL`, `SUBSCRIPTION`).
        public var wallet: [String: Int]

        /// A profile.
        public init(name: String?, phone: String?, email: String?, country: String?, timezone: String?, status: String, wallet: [String: Int]) {
            self.name = name
            self.phone = phone
            self.email = email
            self.country = country
            self.timezone = timezone
            self.status = status
            self.wallet = wallet
        }
    }

    /// `GET auth/v1/sessions`: `{"data": [Session]}`.
    public struct Sessions: Codable, Sendable, Equatable {
        /// The account's live sessions, newest first.
        public var data: [Session]
        /// A session list.
        public init(data: [Session]) { self.data = data }
    }

    /// One signed-in device.
    public struct Session: Codable, Sendable, Equatable {
        /// The session id, for `DELETE auth/v1/sessions/{id}`.
        public var id: String
        /// `X-Device-Name` at sign-in; `null` when none was sent.
        @ExplicitNull public var deviceName: String?
        /// The platform of the API key used (`IOS`); `null` when unknown.
        @ExplicitNull public var platform: String?
        /// `X-App-Version` last seen; `null` when none was sent.
        @ExplicitNull public var appVersion: String?
        /// When the session began (RFC 3339).
        public var createdAt: String
        /// When the session was last used, to the minute (the server always sends it).
        public var lastUsedAt: String?
        /// Whether this is the session of the calling token.
        public var current: Bool

        /// A session.
        public init(
            id: String, deviceName: String?, platform: String?, appVersion: String?, createdAt: String, lastUsedAt: String?, current: Bool
        ) {
            self.id = id
            self.deviceName = deviceName
            self.platform = platform
            self.appVersion = appVersion
            self.createdAt = createdAt
            self.lastUsedAt = lastUsedAt
            self.current = current
        }
    }
}
