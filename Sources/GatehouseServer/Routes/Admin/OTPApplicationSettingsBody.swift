import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire
import GatehouseFormats

/// Reads the JSON of a create or update: every key optional, `null` clears the optional
/// settings, unknown keys and wrong types are refused.
enum OTPApplicationSettingsBody {
    static let fields: Set<String> = [
        "name", "minimumAuth", "callbackUrl", "smsDomain", "codeLength", "lifetimeSeconds", "maxAttempts", "paused",
        "disabledCountries", "dailyLimit", "monthlyLimit", "cooldownSeconds", "smsFee", "calloutFee", "prefixHourlyLimit",
        "prefixDailyLimit", "countryHourlyLimit", "countryDailyLimit", "autoBlockPrefixes",
    ]

    static func decode(_ request: Request) throws -> OTPApplicationSettings {
        let body = try StrictJSON.Body(request, fields: fields, emptyIsObject: true)
        let object = body.members
        var settings = OTPApplicationSettings()
        settings.name = try value(object, "name", \.string)
        if let mode = try value(object, "minimumAuth", \.string) {
            guard let parsed = AuthMode(rawValue: mode) else { throw wrong("minimumAuth", "public, basic or application") }
            settings.minimumAuth = parsed
        }
        settings.callbackURL = try nullable(object, "callbackUrl", \.string)
        settings.smsDomain = try nullable(object, "smsDomain", \.string)
        settings.codeLength = try body.integer("codeLength")
        settings.lifetimeSeconds = try body.integer("lifetimeSeconds")
        settings.maxAttempts = try body.integer("maxAttempts")
        settings.paused = try value(object, "paused", \.bool)
        settings.disabledCountries = try value(object, "disabledCountries", \.strings)
        settings.dailyLimit = try nullableInteger(body, "dailyLimit")
        settings.monthlyLimit = try nullableInteger(body, "monthlyLimit")
        settings.cooldownSeconds = try body.integer("cooldownSeconds")
        settings.smsFee = try value(object, "smsFee", \.string)
        settings.calloutFee = try value(object, "calloutFee", \.string)
        settings.prefixHourlyLimit = try nullableInteger(body, "prefixHourlyLimit")
        settings.prefixDailyLimit = try nullableInteger(body, "prefixDailyLimit")
        settings.countryHourlyLimit = try nullableInteger(body, "countryHourlyLimit")
        settings.countryDailyLimit = try nullableInteger(body, "countryDailyLimit")
        settings.autoBlockPrefixes = try value(object, "autoBlockPrefixes", \.bool)
        return settings
    }

    /// A present value of the right type, or `nil` when absent; `null` counts as a wrong type.
    private static func value<T>(_ object: [String: JSONValue], _ key: String, _ read: (JSONValue) -> T?) throws -> T? {
        guard let raw = object[key] else { return nil }
        guard let typed = read(raw) else { throw wrong(key, "\(T.self)") }
        return typed
    }

    /// Absent: keep (`nil`); `null`: clear (`.some(nil)`); an integer: set.
    private static func nullableInteger(_ body: StrictJSON.Body, _ key: String) throws -> Int?? {
        if body.members[key] == .null { return .some(nil) }
        return try body.integer(key).map { .some($0) }
    }

    /// Absent: keep (`nil`); `null`: clear (`.some(nil)`); a value: set.
    private static func nullable<T>(_ object: [String: JSONValue], _ key: String, _ read: (JSONValue) -> T?) throws -> T?? {
        guard let raw = object[key] else { return nil }
        if raw == .null { return .some(nil) }
        guard let typed = read(raw) else { throw wrong(key, "\(T.self)") }
        return .some(typed)
    }

    private static func wrong(_ key: String, _ expected: String) -> HTTPError {
        HTTPError.badRequest("\(key) must be \(expected)", code: "invalid_body")
    }
}

extension AdminWire.OTPApplication {
    init(_ app: GatehouseVerificationEngine.OTPApplication) {
        self.init(
            id: app.id, tenantId: app.tenantId, name: app.name, appKey: app.appKey, minimumAuth: app.minimumAuth.rawValue,
            callbackUrl: app.callbackURL, smsDomain: app.smsDomain, codeLength: app.codeLength, lifetimeSeconds: app.lifetimeSeconds,
            maxAttempts: app.maxAttempts, paused: app.paused, disabledCountries: app.disabledCountries, dailyLimit: app.dailyLimit,
            monthlyLimit: app.monthlyLimit, cooldownSeconds: app.cooldownSeconds, smsFee: Money.string(app.smsFeeMicros),
            calloutFee: Money.string(app.calloutFeeMicros), createdAt: WireDate.string(app.createdAt),
            prefixHourlyLimit: app.prefixHourlyLimit, prefixDailyLimit: app.prefixDailyLimit, countryHourlyLimit: app.countryHourlyLimit,
            countryDailyLimit: app.countryDailyLimit, autoBlockPrefixes: app.autoBlockPrefixes)
    }
}

extension AdminWire.PrefixBlock {
    init(_ block: PrefixBlock) {
        self.init(
            applicationId: block.applicationId, applicationName: block.applicationName, prefix: "+" + block.prefix, country: block.country,
            reason: block.reason, sent: block.sent, verified: block.verified, baseline: block.baseline, blockedAt: WireDate.string(block.blockedAt),
            blockedUntil: block.blockedUntil.map(WireDate.string), liftedAt: block.liftedAt.map(WireDate.string), active: block.active)
    }
}
