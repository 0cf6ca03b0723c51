import Foundation
import GatehouseCore
import GatehouseDatabase

/// The editable columns of an application, validated together.
struct ApplicationValues {
    var name = "OTP application"
    var minimumAuth = AuthMode.public
    var callbackURL: String?
    var smsDomain: String?
    var codeLength = 6
    var lifetimeSeconds = 300
    var maxAttempts = 3
    var paused = false
    var disabledCountries: [String] = []
    var dailyLimit: Int?
    var monthlyLimit: Int?
    var cooldownSeconds = 30
    var smsFeeMicros: Int64 = 50_000
    var calloutFeeMicros: Int64 = 100_000
    var prefixHourlyLimit: Int?
    var prefixDailyLimit: Int?
    var countryHourlyLimit: Int?
    var countryDailyLimit: Int?
    var autoBlockPrefixes = true

    static let defaults = ApplicationValues()

    init() {}

    init(_ app: OTPApplication) {
        name = app.name
        minimumAuth = app.minimumAuth
        callbackURL = app.callbackURL
        smsDomain = app.smsDomain
        codeLength = app.codeLength
        lifetimeSeconds = app.lifetimeSeconds
        maxAttempts = app.maxAttempts
        paused = app.paused
        disabledCountries = app.disabledCountries
        dailyLimit = app.dailyLimit
        monthlyLimit = app.monthlyLimit
        cooldownSeconds = app.cooldownSeconds
        smsFeeMicros = app.smsFeeMicros
        calloutFeeMicros = app.calloutFeeMicros
        prefixHourlyLimit = app.prefixHourlyLimit
        prefixDailyLimit = app.prefixDailyLimit
        countryHourlyLimit = app.countryHourlyLimit
        countryDailyLimit = app.countryDailyLimit
        autoBlockPrefixes = app.autoBlockPrefixes
    }

    func applying(_ input: OTPApplicationSettings) throws -> ApplicationValues {
        var values = self
        if let name = input.name { values.name = name }
        if let mode = input.minimumAuth { values.minimumAuth = mode }
        if let url = input.callbackURL { values.callbackURL = try url.map(Self.validCallbackURL) }
        if let domain = input.smsDomain {
            if let domain, !MessageRenderer.isValidDomain(domain) { throw CoreError.invalid("smsDomain", .hostName) }
            values.smsDomain = domain?.lowercased()
        }
        if let length = input.codeLength {
            guard (4...8).contains(length) else { throw CoreError.invalid("codeLength", .range(4...8)) }
            values.codeLength = length
        }
        if let lifetime = input.lifetimeSeconds {
            guard (60...600).contains(lifetime) else { throw CoreError.invalid("lifetimeSeconds", .range(60...600)) }
            values.lifetimeSeconds = lifetime
        }
        if let attempts = input.maxAttempts {
            guard (1...10).contains(attempts) else { throw CoreError.invalid("maxAttempts", .range(1...10)) }
            values.maxAttempts = attempts
        }
        if let paused = input.paused { values.paused = paused }
        if let countries = input.disabledCountries {
            let upper = countries.map { $0.uppercased() }
            guard upper.allSatisfy({ $0.count == 2 && $0.allSatisfy { ("A"..."Z").contains($0) } }) else {
                throw CoreError.invalid("disabledCountries", .countryCodes)
            }
            values.disabledCountries = Array(Set(upper)).sorted()
        }
        if let limit = input.dailyLimit { values.dailyLimit = try limit.map(Self.positive) }
        if let limit = input.monthlyLimit { values.monthlyLimit = try limit.map(Self.positive) }
        if let limit = input.prefixHourlyLimit { values.prefixHourlyLimit = try limit.map(Self.positive) }
        if let limit = input.prefixDailyLimit { values.prefixDailyLimit = try limit.map(Self.positive) }
        if let limit = input.countryHourlyLimit { values.countryHourlyLimit = try limit.map(Self.positive) }
        if let limit = input.countryDailyLimit { values.countryDailyLimit = try limit.map(Self.positive) }
        if let on = input.autoBlockPrefixes { values.autoBlockPrefixes = on }
        if let cooldown = input.cooldownSeconds {
            guard (0...86_400).contains(cooldown) else { throw CoreError.invalid("cooldownSeconds", .range(0...86_400)) }
            values.cooldownSeconds = cooldown
        }
        if let fee = input.smsFee { values.smsFeeMicros = try Self.fee(fee, field: "smsFee") }
        if let fee = input.calloutFee { values.calloutFeeMicros = try Self.fee(fee, field: "calloutFee") }
        return values
    }

    func validName() throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 200 else { throw CoreError.invalid("name", .length(1...200)) }
        return trimmed
    }

    /// The columns of ``columns``, in order.
    static let columnNames = [
        "min_auth", "callback_url", "sms_domain", "code_length", "lifetime_seconds", "max_attempts", "paused", "disabled_countries",
        "daily_limit", "monthly_limit", "cooldown_seconds", "fee_sms_micros", "fee_callout_micros", "prefix_hourly_limit",
        "prefix_daily_limit", "country_hourly_limit", "country_daily_limit", "auto_block_prefixes",
    ]

    /// `INSERT INTO otp_applications` of id, tenant, name, key, secret, ``columns``, created_at and `extra`.
    static func insertSQL(extra: [String] = []) -> String {
        let names = ["id", "tenant_id", "name", "app_key", "secret"] + columnNames + ["created_at"] + extra
        return "INSERT INTO otp_applications (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
    }

    /// `UPDATE otp_applications` of name and ``columns``, for the id bound last.
    static let updateSQL = "UPDATE otp_applications SET " + (["name"] + columnNames).map { "\($0) = ?" }.joined(separator: ", ") + " WHERE id = ?"

    /// Bound after id, tenant, name, key and secret on insert, after name on update.
    var columns: [SQLValue] {
        [
            .text(minimumAuth.rawValue), callbackURL.sqlValue, smsDomain.sqlValue, .integer(Int64(codeLength)),
            .integer(Int64(lifetimeSeconds)), .integer(Int64(maxAttempts)), .boolean(paused),
            .text(disabledCountries.joined(separator: ",")), dailyLimit.sqlValue, monthlyLimit.sqlValue,
            .integer(Int64(cooldownSeconds)), .integer(smsFeeMicros), .integer(calloutFeeMicros), prefixHourlyLimit.sqlValue,
            prefixDailyLimit.sqlValue, countryHourlyLimit.sqlValue, countryDailyLimit.sqlValue, .boolean(autoBlockPrefixes),
        ]
    }

    static func validCallbackURL(_ text: String) throws -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false, text.count <= 2000
        else { throw CoreError.invalid("callbackUrl", .httpURL) }
        return text
    }

    /// Above zero, and within the 32-bit INTEGER columns of PostgreSQL.
    static func positive(_ value: Int) throws -> Int {
        guard value > 0, value <= Int(Int32.max) else { throw CoreError.invalid("limits (dailyLimit, monthlyLimit, prefixHourlyLimit…)", .range(1...Int(Int32.max))) }
        return value
    }

    static func fee(_ text: String, field: String) throws -> Int64 {
        guard let micros = Money.micros(text) else { throw CoreError.invalid(field, .decimal(example: "0.05")) }
        return micros
    }
}
