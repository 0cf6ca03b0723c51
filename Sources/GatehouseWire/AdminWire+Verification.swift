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
        /// SMS-pumping budgets: codes per prefix and per country per UTC hour and day (`null`: none).
        public let prefixHourlyLimit: Int?
        public let prefixDailyLimit: Int?
        public let countryHourlyLimit: Int?
        public let countryDailyLimit: Int?
        /// Whether a prefix whose conversion collapses while its volume spikes is blocked on its own.
        public let autoBlockPrefixes: Bool
        public let createdAt: String
        /// Why the request callback last failed (unreachable, timed out, a non-2xx, an unreadable
        /// answer), when it has; only in answers about one application.
        public var lastCallbackFailure: CallbackFailure?

        public init(
            id: String, tenantId: String, name: String, appKey: String, minimumAuth: String, callbackUrl: String?,
            smsDomain: String?, codeLength: Int, lifetimeSeconds: Int, maxAttempts: Int, paused: Bool,
            disabledCountries: [String], dailyLimit: Int?, monthlyLimit: Int?, cooldownSeconds: Int, smsFee: String,
            calloutFee: String, createdAt: String, prefixHourlyLimit: Int? = nil, prefixDailyLimit: Int? = nil,
            countryHourlyLimit: Int? = nil, countryDailyLimit: Int? = nil, autoBlockPrefixes: Bool = true
        ) {
            self.prefixHourlyLimit = prefixHourlyLimit
            self.prefixDailyLimit = prefixDailyLimit
            self.countryHourlyLimit = countryHourlyLimit
            self.countryDailyLimit = countryDailyLimit
            self.autoBlockPrefixes = autoBlockPrefixes
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
        case paused, disabledCountries, dailyLimit, monthlyLimit, cooldownSeconds, smsFee, calloutFee, prefixHourlyLimit, prefixDailyLimit
        case countryHourlyLimit, countryDailyLimit, autoBlockPrefixes, createdAt, lastCallbackFailure
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
        try container.encode(prefixHourlyLimit, forKey: .prefixHourlyLimit)
        try container.encode(prefixDailyLimit, forKey: .prefixDailyLimit)
        try container.encode(countryHourlyLimit, forKey: .countryHourlyLimit)
        try container.encode(countryDailyLimit, forKey: .countryDailyLimit)
        try container.encode(autoBlockPrefixes, forKey: .autoBlockPrefixes)
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

extension AdminWire {
    /// A prefix held back from SMS codes (`/admin/v1/tenants/:id/prefix-blocks`).
    public struct PrefixBlock: Codable, Sendable, Equatable {
        /// `null` for a pin on the whole tenant (every application, later ones too).
        public let applicationId: String?
        public let applicationName: String?
        /// `+`, the country code and the destination code, e.g. `+447400`.
        public let prefix: String
        public let country: String?
        /// `conversion` (the guard blocked it) or `operator` (pinned).
        public let reason: String
        /// Codes sent and verified in the hour that decided, and the application's baseline share verified.
        public let sent: Int
        public let verified: Int
        public let baseline: Double?
        public let blockedAt: String
        /// `null` for a pinned block.
        public let blockedUntil: String?
        public let liftedAt: String?
        public let active: Bool

        public init(
            applicationId: String?, applicationName: String?, prefix: String, country: String?, reason: String, sent: Int, verified: Int,
            baseline: Double?, blockedAt: String, blockedUntil: String?, liftedAt: String?, active: Bool
        ) {
            self.applicationId = applicationId
            self.applicationName = applicationName
            self.prefix = prefix
            self.country = country
            self.reason = reason
            self.sent = sent
            self.verified = verified
            self.baseline = baseline
            self.blockedAt = blockedAt
            self.blockedUntil = blockedUntil
            self.liftedAt = liftedAt
            self.active = active
        }

        private enum CodingKeys: String, CodingKey {
            case applicationId, applicationName, prefix, country, reason, sent, verified, baseline, blockedAt, blockedUntil, liftedAt, active
        }

        /// Every key is written, unset ones as `null`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(applicationId, forKey: .applicationId)
            try container.encode(applicationName, forKey: .applicationName)
            try container.encode(prefix, forKey: .prefix)
            try container.encode(country, forKey: .country)
            try container.encode(reason, forKey: .reason)
            try container.encode(sent, forKey: .sent)
            try container.encode(verified, forKey: .verified)
            try container.encode(baseline, forKey: .baseline)
            try container.encode(blockedAt, forKey: .blockedAt)
            try container.encode(blockedUntil, forKey: .blockedUntil)
            try container.encode(liftedAt, forKey: .liftedAt)
            try container.encode(active, forKey: .active)
        }
    }

    /// Pins a block (`POST …/prefix-blocks`): on one application, or without `applicationId`
    /// on every application of the tenant, those made later included.
    public struct PrefixBlockRequest: Codable, Sendable, Equatable {
        public let prefix: String
        public let applicationId: String?
        public init(prefix: String, applicationId: String? = nil) {
            self.prefix = prefix
            self.applicationId = applicationId
        }
    }

    /// An application's codes per prefix and country in the last hour, and its baseline
    /// share verified (`GET …/otp-applications/:id/conversion`).
    public struct Conversion: Codable, Sendable, Equatable {
        public struct Line: Codable, Sendable, Equatable {
            /// `+447400` for a prefix, `GB` for a country.
            public let value: String
            public let sent: Int
            public let verified: Int
            public init(value: String, sent: Int, verified: Int) {
                self.value = value
                self.sent = sent
                self.verified = verified
            }
        }
        public let baseline: Double
        public let prefixes: [Line]
        public let countries: [Line]
        public init(baseline: Double, prefixes: [Line], countries: [Line]) {
            self.baseline = baseline
            self.prefixes = prefixes
            self.countries = countries
        }
    }
}

extension AdminWire {
    /// The settings of an OTP application, as a create or update sends them (`POST|PATCH
    /// …/otp-applications`): every member optional; `null` clears a `Nullable` one.
    public struct OTPApplicationSettings: Codable, Sendable, Equatable {
        public var name: String?
        /// `public`, `basic` or `application`.
        public var minimumAuth: String?
        public var callbackUrl: Nullable<String>?
        public var smsDomain: Nullable<String>?
        public var codeLength: Int?
        public var lifetimeSeconds: Int?
        public var maxAttempts: Int?
        public var paused: Bool?
        public var disabledCountries: [String]?
        public var dailyLimit: Nullable<Int>?
        public var monthlyLimit: Nullable<Int>?
        public var cooldownSeconds: Int?
        public var smsFee: String?
        public var calloutFee: String?
        public var prefixHourlyLimit: Nullable<Int>?
        public var prefixDailyLimit: Nullable<Int>?
        public var countryHourlyLimit: Nullable<Int>?
        public var countryDailyLimit: Nullable<Int>?
        public var autoBlockPrefixes: Bool?

        /// Settings that change nothing; set the members to change.
        public init() {}
    }

    /// A message template (`PUT …/templates/:group/:channel/:language`).
    public struct Template: Codable, Sendable, Equatable {
        /// The message; `{{CODE}}` stands for the code.
        public var body: String
        public init(body: String) { self.body = body }
    }

    /// A change of the verification balance (`POST …/verification-balance`), a decimal string,
    /// negative to take.
    public struct BalanceChange: Codable, Sendable, Equatable {
        public var amount: String
        public init(amount: String) { self.amount = amount }
    }
}
