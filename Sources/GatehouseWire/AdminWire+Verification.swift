import Foundation

extension AdminWire {
    /// An OTP application as the operator API shows it (never its secret).
    public struct OTPApplication: Codable, Sendable, Equatable {
        public let id: String
        public let tenantId: String
        public let name: String
        public let appKey: String
        public let minimumAuth: String
        public let callbackUrl: String?
        public let smsDomain: String?
        public let codeLength: Int
        public let lifetimeSeconds: Int
        public let maxAttempts: Int
        public let paused: Bool
        public let disabledCountries: [String]
        public let dailyLimit: Int?
        public let monthlyLimit: Int?
        public let cooldownSeconds: Int
        public let smsFee: String
        public let calloutFee: String
        public let createdAt: String
        /// Why the request callback last failed (unreachable, timed out, a non-2xx, an unreadable
        /// answer), when it has; only in answers about one application.
        public var lastCallbackFailure: CallbackFailure?

        public init(
            id: String, tenantId: String, name: String, appKey: String, minimumAuth: String, callbackUrl: String?,
            smsDomain: String?, codeLength: Int, lifetimeSeconds: Int, maxAttempts: Int, paused: Bool,
            disabledCountries: [String], dailyLimit: Int?, monthlyLimit: Int?, cooldownSeconds: Int, smsFee: String,
            calloutFee: String, createdAt: String
        ) {
            self.id = id
            self.tenantId = tenantId
            self.name = name
            self.appKey = appKey
            self.minimumAuth = minimumAuth
            self.callbackUrl = callbackUrl
            self.smsDomain = smsDomain
            self.codeLength = codeLength
            self.lifetimeSeconds = lifetimeSeconds
            self.maxAttempts = maxAttempts
            self.paused = paused
            self.disabledCountries = disabledCountries
            self.dailyLimit = dailyLimit
            self.monthlyLimit = monthlyLimit
            self.cooldownSeconds = cooldownSeconds
            self.smsFee = smsFee
            self.calloutFee = calloutFee
            self.createdAt = createdAt
        }
    }

    /// A request callback that failed, and when (RFC 3339).
    public struct CallbackFailure: Codable, Sendable, Equatable {
        public let reason: String
        public let at: String
        public init(reason: String, at: String) {
            self.reason = reason
            self.at = at
        }
    }

    /// An application just created; `secret` is shown this once.
    public struct CreatedOTPApplication: Codable, Sendable, Equatable {
        public let application: OTPApplication
        public let secret: String
        public init(application: OTPApplication, secret: String) {
            self.application = application
            self.secret = secret
        }
    }

    /// A message held by the development outbox.
    public struct OutboxMessage: Codable, Sendable, Equatable {
        public let to: String
        public let channel: String
        public let body: String
        public let createdAt: String
        public init(to: String, channel: String, body: String, createdAt: String) {
            self.to = to
            self.channel = channel
            self.body = body
            self.createdAt = createdAt
        }
    }

    public struct Balance: Codable, Sendable, Equatable {
        public let balance: String
        public init(balance: String) { self.balance = balance }
    }
}

extension AdminWire.OTPApplication {
    private enum Keys: String, CodingKey {
        case id, tenantId, name, appKey, minimumAuth, callbackUrl, smsDomain, codeLength, lifetimeSeconds, maxAttempts
        case paused, disabledCountries, dailyLimit, monthlyLimit, cooldownSeconds, smsFee, calloutFee, createdAt, lastCallbackFailure
    }

    /// Every key is written, unset settings as `null`, so an operator sees what can be set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(id, forKey: .id)
        try container.encode(tenantId, forKey: .tenantId)
        try container.encode(name, forKey: .name)
        try container.encode(appKey, forKey: .appKey)
        try container.encode(minimumAuth, forKey: .minimumAuth)
        try container.encode(callbackUrl, forKey: .callbackUrl)
        try container.encode(smsDomain, forKey: .smsDomain)
        try container.encode(codeLength, forKey: .codeLength)
        try container.encode(lifetimeSeconds, forKey: .lifetimeSeconds)
        try container.encode(maxAttempts, forKey: .maxAttempts)
        try container.encode(paused, forKey: .paused)
        try container.encode(disabledCountries, forKey: .disabledCountries)
        try container.encode(dailyLimit, forKey: .dailyLimit)
        try container.encode(monthlyLimit, forKey: .monthlyLimit)
        try container.encode(cooldownSeconds, forKey: .cooldownSeconds)
        try container.encode(smsFee, forKey: .smsFee)
        try container.encode(calloutFee, forKey: .calloutFee)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(lastCallbackFailure, forKey: .lastCallbackFailure)
    }
}

extension AdminWire {
    /// A test number or email (`/admin/v1/tenants/:id/test-numbers`): a start to it sends
    /// nothing and costs nothing, and `code` verifies it.
    public struct TestNumber: Codable, Sendable, Equatable {
        /// `+` and E.164 digits, or an email address.
        public let destination: String
        /// 4 to 8 digits (6 for sign-in, whose codes have 6).
        public let code: String
        /// Required for a number outside the reserved ranges: the operator says it is theirs.
        public let confirmed: Bool?
        /// In answers.
        public let createdAt: String?

        public init(destination: String, code: String, confirmed: Bool? = nil, createdAt: String? = nil) {
            self.destination = destination
            self.code = code
            self.confirmed = confirmed
            self.createdAt = createdAt
        }
    }
}
