import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire
import GatehouseFormats

/// What a create or update of an OTP application takes (`AdminWire.OTPApplicationSettings`):
/// every member optional, an empty body changing nothing, `null` clearing the nullable settings.
enum OTPApplicationSettingsBody {
    static let fields: Set<String> = [
        "name", "minimumAuth", "callbackUrl", "smsDomain", "codeLength", "lifetimeSeconds", "maxAttempts", "paused",
        "disabledCountries", "dailyLimit", "monthlyLimit", "cooldownSeconds", "smsFee", "calloutFee", "prefixHourlyLimit",
        "prefixDailyLimit", "countryHourlyLimit", "countryDailyLimit", "autoBlockPrefixes",
    ]

    /// The counts and seconds, each refused outside `StrictJSON.counts` with a message naming the range.
    static let integers: [String: ClosedRange<Int>] = Dictionary(uniqueKeysWithValues: [
        "codeLength", "lifetimeSeconds", "maxAttempts", "dailyLimit", "monthlyLimit", "cooldownSeconds", "prefixHourlyLimit",
        "prefixDailyLimit", "countryHourlyLimit", "countryDailyLimit",
    ].map { ($0, StrictJSON.counts) })
}

extension OTPApplicationSettings {
    /// The engine's settings for the wire's: absent keeps, `null` clears (`.some(nil)`).
    init(_ wire: AdminWire.OTPApplicationSettings) throws {
        self.init()
        name = wire.name
        if let mode = wire.minimumAuth {
            guard let parsed = AuthMode(rawValue: mode) else {
                throw HTTPError.badRequest("minimumAuth must be public, basic or application", code: "invalid_body")
            }
            minimumAuth = parsed
        }
        callbackURL = wire.callbackUrl.map(\.wrapped)
        smsDomain = wire.smsDomain.map(\.wrapped)
        codeLength = wire.codeLength
        lifetimeSeconds = wire.lifetimeSeconds
        maxAttempts = wire.maxAttempts
        paused = wire.paused
        disabledCountries = wire.disabledCountries
        dailyLimit = wire.dailyLimit.map(\.wrapped)
        monthlyLimit = wire.monthlyLimit.map(\.wrapped)
        cooldownSeconds = wire.cooldownSeconds
        smsFee = wire.smsFee
        calloutFee = wire.calloutFee
        prefixHourlyLimit = wire.prefixHourlyLimit.map(\.wrapped)
        prefixDailyLimit = wire.prefixDailyLimit.map(\.wrapped)
        countryHourlyLimit = wire.countryHourlyLimit.map(\.wrapped)
        countryDailyLimit = wire.countryDailyLimit.map(\.wrapped)
        autoBlockPrefixes = wire.autoBlockPrefixes
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
