import Foundation
import GatehouseClientCore
import GatehouseWire
import GatehouseFormats

/// `gatehouse-cli otp-apps …` and `balance …`: OTP applications through the admin API.
extension CLI {
    static let otpUsage = """
        usage: gatehouse-cli otp-apps list TENANT | otp-apps show TENANT APP   (show: with the last callback failure)
               gatehouse-cli otp-apps create TENANT [SETTINGS]       (prints the secret once)
               gatehouse-cli otp-apps update TENANT APP [SETTINGS]
               gatehouse-cli otp-apps template TENANT APP GROUP sms|callout LANGUAGE BODY   (GROUP _default: the app's own)
               gatehouse-cli balance TENANT [AMOUNT]
        SETTINGS: --name N --min-auth public|basic|application --callback-url URL|none --sms-domain HOST|none
                  --code-length 4-8 --lifetime 60-600 --attempts N --paused true|false --disabled-countries GB,DE
                  --daily-limit N|none --monthly-limit N|none --cooldown SECONDS --sms-fee 0.05 --callout-fee 0.10
                  --prefix-hourly-limit N|none --prefix-daily-limit N|none --country-hourly-limit N|none
                  --country-daily-limit N|none --auto-block-prefixes true|false   (the SMS-pumping guard)
               gatehouse-cli otp-apps conversion TENANT APP   codes per prefix and country in the last hour, and the baseline
        public mode (--min-auth public) asks --callback-url before each start: a signed POST that must answer 2xx
        {"action":"allow"} or {"action":"deny"} within verification-callback-timeout; in development,
        http://127.0.0.1:8080/dev/verification-callback checks the signature and allows every start
        """

    /// Flag name → (JSON key, kind).
    static func otpApps(_ words: [String], admin: APIClient) async throws {
        let options = Options(
            Array(words.dropFirst()), known: settingFlags,
            takes: ["list": 1, "show": 2, "create": 1, "update": 2, "template": 6, "conversion": 2][words.first ?? ""])
        let args = options.positional
        func arg(_ index: Int) -> String {
            guard index < args.count else { fail(otpUsage) }
            return args[index]
        }
        switch words.first {
        case "list":
            try output(await admin.call(
                AdminWire.Endpoints.listOTPApplications, ["tenantId": arg(0)]))
        case "show":
            try output(await admin.call(
                AdminWire.Endpoints.getOTPApplication, ["tenantId": arg(0), "appId": arg(1)]))
        case "create":
            try output(await admin.call(
                AdminWire.Endpoints.createOTPApplication, ["tenantId": arg(0)], body: settings(options)))
        case "update":
            try output(await admin.call(
                AdminWire.Endpoints.updateOTPApplication, ["tenantId": arg(0), "appId": arg(1)], body: settings(options)))
        case "conversion":
            try output(await admin.call(
                AdminWire.Endpoints.getConversion, ["tenantId": arg(0), "appId": arg(1)]))
        case "template":
            try await admin.call(
                AdminWire.Endpoints.putTemplate, ["tenantId": arg(0), "appId": arg(1), "group": arg(2), "channel": arg(3), "language": arg(4)],
                body: AdminWire.Template(body: arg(5)))
            print("saved")
        default:
            fail(otpUsage)
        }
    }

    static func balance(_ words: [String], admin: APIClient) async throws {
        guard let tenant = words.first else { fail(otpUsage) }
        let tenantPath = ["tenantId": tenant]
        if words.count > 1 {
            try output(await admin.call(AdminWire.Endpoints.adjustVerificationBalance, tenantPath, body: AdminWire.BalanceChange(amount: words[1])))
        } else {
            try output(await admin.call(AdminWire.Endpoints.getVerificationBalance, tenantPath))
        }
    }

    /// The flags of an application's settings.
    static let settingFlags: Set<String> = [
        "name", "min-auth", "callback-url", "sms-domain", "code-length", "lifetime", "attempts", "paused", "disabled-countries", "daily-limit",
        "monthly-limit", "cooldown", "sms-fee", "callout-fee", "prefix-hourly-limit", "prefix-daily-limit", "country-hourly-limit",
        "country-daily-limit", "auto-block-prefixes",
    ]

    /// The settings of a create or update, from the flags given; `none` clears a nullable one.
    private static func settings(_ options: Options) -> AdminWire.OTPApplicationSettings {
        func number(_ flag: String, _ raw: String) -> Int {
            guard let number = Int(raw) else { fail("--\(flag) must be a whole number") }
            return number
        }
        func whole(_ flag: String) -> Int? { options.value(flag).map { number(flag, $0) } }
        func nullableText(_ flag: String) -> Nullable<String>? { options.value(flag).map { $0 == "none" ? .null : .value($0) } }
        func nullableWhole(_ flag: String) -> Nullable<Int>? { options.value(flag).map { $0 == "none" ? .null : .value(number(flag, $0)) } }
        func bool(_ flag: String) -> Bool? {
            options.value(flag).map { raw in
                guard let value = Bool(raw) else { fail("--\(flag) must be true or false") }
                return value
            }
        }
        var settings = AdminWire.OTPApplicationSettings()
        settings.name = options.value("name")
        settings.minimumAuth = options.value("min-auth")
        settings.callbackUrl = nullableText("callback-url")
        settings.smsDomain = nullableText("sms-domain")
        settings.codeLength = whole("code-length")
        settings.lifetimeSeconds = whole("lifetime")
        settings.maxAttempts = whole("attempts")
        settings.paused = bool("paused")
        settings.disabledCountries = options.value("disabled-countries").map { $0.split(separator: ",").map(String.init) }
        settings.dailyLimit = nullableWhole("daily-limit")
        settings.monthlyLimit = nullableWhole("monthly-limit")
        settings.cooldownSeconds = whole("cooldown")
        settings.smsFee = options.value("sms-fee")
        settings.calloutFee = options.value("callout-fee")
        settings.prefixHourlyLimit = nullableWhole("prefix-hourly-limit")
        settings.prefixDailyLimit = nullableWhole("prefix-daily-limit")
        settings.countryHourlyLimit = nullableWhole("country-hourly-limit")
        settings.countryDailyLimit = nullableWhole("country-daily-limit")
        settings.autoBlockPrefixes = bool("auto-block-prefixes")
        return settings
    }
}

/// `gatehouse-cli test-numbers …`: a tenant's test numbers and emails (App Review, CI).
extension CLI {
    static let testNumbersUsage = """
        usage: gatehouse-cli test-numbers list TENANT
               gatehouse-cli test-numbers add TENANT DESTINATION CODE [--confirmed yes]
               gatehouse-cli test-numbers remove TENANT DESTINATION
        a start to a test number sends nothing and costs nothing, and CODE (4 to 8 digits; 6 for sign-in) verifies it;
        numbers outside the reserved ranges (555-01xx, +44 7700 900xxx, +61 491 57x xxx, example.com, .test) need --confirmed yes
        """

    static func testNumbers(_ words: [String], admin: APIClient) async throws {
        let options = Options(Array(words.dropFirst()), known: ["confirmed"], takes: ["list": 1, "add": 3, "remove": 2][words.first ?? ""])
        let args = options.positional
        guard let tenant = args.first else { fail(testNumbersUsage) }
        switch words.first {
        case "list": try output(await admin.call(AdminWire.Endpoints.listTestNumbers, ["tenantId": tenant]))
        case "add":
            guard args.count == 3 else { fail(testNumbersUsage) }
            let body = AdminWire.TestNumber(destination: args[1], code: args[2], confirmed: options.value("confirmed") == "yes")
            try output(await admin.call(AdminWire.Endpoints.addTestNumber, ["tenantId": tenant], body: body))
        case "remove":
            guard args.count == 2 else { fail(testNumbersUsage) }
            try await admin.call(AdminWire.Endpoints.removeTestNumber, ["tenantId": tenant, "destination": args[1]])
            print("removed")
        default: fail(testNumbersUsage)
        }
    }
}

/// `gatehouse-cli prefix-blocks …`: prefixes the SMS-pumping guard or an operator holds codes back from.
extension CLI {
    static let prefixBlocksUsage = """
        usage: gatehouse-cli prefix-blocks list TENANT           active blocks first, then ended ones
               gatehouse-cli prefix-blocks pin TENANT PREFIX [--app APP]    block until lifted (the whole tenant, later apps too, without --app)
               gatehouse-cli prefix-blocks lift TENANT PREFIX [--app APP]   let codes through again
        PREFIX: + country code and destination code, such as +447400 (gatehouse-cli otp-apps conversion shows them)
        """

    static func prefixBlocks(_ words: [String], admin: APIClient) async throws {
        let options = Options(Array(words.dropFirst()), known: ["app"])
        let args = options.positional
        guard let tenant = args.first else { fail(prefixBlocksUsage) }
        switch words.first {
        case "list" where args.count == 1:
            try output(await admin.call(AdminWire.Endpoints.listPrefixBlocks, ["tenantId": tenant]))
        case "pin" where args.count == 2:
            let body = AdminWire.PrefixBlockRequest(prefix: args[1], applicationId: options.value("app"))
            try output(await admin.call(AdminWire.Endpoints.pinPrefixBlock, ["tenantId": tenant], body: body))
        case "lift" where args.count == 2:
            let app = options.value("app").map { "applicationId=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) }
            try await admin.call(AdminWire.Endpoints.liftPrefixBlock, ["tenantId": tenant, "prefix": args[1]], query: app)
            print("lifted")
        default: fail(prefixBlocksUsage)
        }
    }
}
