extension SubscriptionFlowWire {
    /// An account token as `POST /account-tokens` and its revoke answer it (seed 003). The
    /// client secret and `reused` come only with an issue.
    public struct AccountToken: Codable, Sendable, Equatable {
        /// The token the app sends as `X-SF-Account-Token`.
        public var accountToken: String
        /// The backend's own id of the customer.
        public var customerId: String
        /// When it was issued (`+00:00`).
        public var createdAt: String
        /// When it was revoked; `null` while it is live.
        @ExplicitNull public var revokedAt: String?
        /// The secret the app sends as `X-SF-Client-Secret`; only in an issue's answer.
        public var clientSecret: String?
        /// Whether an issue returned the customer's existing token.
        public var reused: Bool?

        /// An account token.
        public init(accountToken: String, customerId: String, createdAt: String, revokedAt: String?, clientSecret: String? = nil, reused: Bool? = nil) {
            self.accountToken = accountToken
            self.customerId = customerId
            self.createdAt = createdAt
            self.revokedAt = revokedAt
            self.clientSecret = clientSecret
            self.reused = reused
        }

        enum CodingKeys: String, CodingKey {
            case reused
            case accountToken = "account_token", customerId = "customer_id", createdAt = "created_at", revokedAt = "revoked_at"
            case clientSecret = "client_secret"
        }
    }
}
