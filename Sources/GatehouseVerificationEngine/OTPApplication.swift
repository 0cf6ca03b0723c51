import Foundation
import GatehouseCrypto
import GatehouseDatabase

/// How a request proved which application it speaks for, weakest first.
public enum AuthMode: String, Sendable, Comparable, CaseIterable {
    case `public`, basic, application

    var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (lhs: AuthMode, rhs: AuthMode) -> Bool { lhs.rank < rhs.rank }
}

/// An OTP application: a tenant's settings for sending and checking codes.
public struct OTPApplication: Sendable, Equatable {
    public let id: String
    public let tenantId: String
    public var name: String
    public let appKey: String
    /// URL-safe base64; kept (not hashed) because HMAC signatures are checked and made with it.
    let secret: String
    /// What a request's proof is checked against, derived once when the row is read (a hot
    /// application is cached): the secret's SHA-256, and the signing key it decodes to.
    let secretDigest: [UInt8]
    let signingKey: [UInt8]?
    public var minimumAuth: AuthMode
    public var callbackURL: String?
    public var smsDomain: String?
    public var codeLength: Int
    public var lifetimeSeconds: Int
    public var maxAttempts: Int
    public var paused: Bool
    /// ISO 3166 alpha-2 codes, upper case.
    public var disabledCountries: [String]
    public var dailyLimit: Int?
    public var monthlyLimit: Int?
    public var cooldownSeconds: Int
    public var smsFeeMicros: Int64
    public var calloutFeeMicros: Int64
    /// SMS-pumping budgets: codes sent to one prefix (``PhoneNumber/prefix``) or one country
    /// per UTC hour and day; nil is no budget.
    public var prefixHourlyLimit: Int?
    public var prefixDailyLimit: Int?
    public var countryHourlyLimit: Int?
    public var countryDailyLimit: Int?
    /// Whether a prefix whose conversion collapses while its volume spikes is blocked.
    public var autoBlockPrefixes: Bool
    public let createdAt: Date

    init(row: Row) throws {
        id = try row.get("id")
        tenantId = try row.get("tenant_id")
        name = try row.get("name")
        appKey = try row.get("app_key")
        secret = try row.get("secret")
        secretDigest = SHA256.hash(Data(secret.utf8))
        signingKey = RequestSigner.key(fromSecret: secret)
        minimumAuth = AuthMode(rawValue: try row.get("min_auth")) ?? .application
        callbackURL = try row.get("callback_url")
        smsDomain = try row.get("sms_domain")
        codeLength = try row.get("code_length")
        lifetimeSeconds = try row.get("lifetime_seconds")
        maxAttempts = try row.get("max_attempts")
        paused = try row.get("paused")
        let countries: String = try row.get("disabled_countries")
        disabledCountries = countries.split(separator: ",").map(String.init)
        dailyLimit = try row.get("daily_limit")
        monthlyLimit = try row.get("monthly_limit")
        cooldownSeconds = try row.get("cooldown_seconds")
        smsFeeMicros = try row.get("fee_sms_micros")
        calloutFeeMicros = try row.get("fee_callout_micros")
        prefixHourlyLimit = try row.get("prefix_hourly_limit")
        prefixDailyLimit = try row.get("prefix_daily_limit")
        countryHourlyLimit = try row.get("country_hourly_limit")
        countryDailyLimit = try row.get("country_daily_limit")
        autoBlockPrefixes = try row.get("auto_block_prefixes")
        createdAt = try row.get("created_at")
    }

    func fee(for channel: VerificationChannel) -> Int64 {
        switch channel {
        case .sms: return smsFeeMicros
        case .callout: return calloutFeeMicros
        case .email: return 0
        }
    }
}

/// The settings an operator may give when creating or changing an application; `nil`
/// keeps the current value (or the default on creation).
public struct OTPApplicationSettings: Sendable, Equatable {
    public var name: String?
    public var minimumAuth: AuthMode?
    /// `.some(nil)` clears it.
    public var callbackURL: String??
    public var smsDomain: String??
    public var codeLength: Int?
    public var lifetimeSeconds: Int?
    public var maxAttempts: Int?
    public var paused: Bool?
    public var disabledCountries: [String]?
    public var dailyLimit: Int??
    public var monthlyLimit: Int??
    public var cooldownSeconds: Int?
    public var smsFee: String?
    public var calloutFee: String?
    public var prefixHourlyLimit: Int??
    public var prefixDailyLimit: Int??
    public var countryHourlyLimit: Int??
    public var countryDailyLimit: Int??
    public var autoBlockPrefixes: Bool?

    public init() {}
}
