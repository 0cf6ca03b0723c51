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
    private static let settingFlags: [String: (String, Kind)] = [
        "name": ("name", .text), "min-auth": ("minimumAuth", .text), "callback-url": ("callbackUrl", .nullableText),
        "sms-domain": ("smsDomain", .nullableText), "code-length": ("codeLength", .number), "lifetime": ("lifetimeSeconds", .number),
        "attempts": ("maxAttempts", .number), "paused": ("paused", .flag), "disabled-countries": ("disabledCountries", .list),
        "daily-limit": ("dailyLimit", .nullableNumber), "monthly-limit": ("monthlyLimit", .nullableNumber),
        "cooldown": ("cooldownSeconds", .number), "sms-fee": ("smsFee", .text), "callout-fee": ("calloutFee", .text),
        "prefix-hourly-limit": ("prefixHourlyLimit", .nullableNumber), "prefix-daily-limit": ("prefixDailyLimit", .nullableNumber),
        "country-hourly-limit": ("countryHourlyLimit", .nullableNumber), "country-daily-limit": ("countryDailyLimit", .nullableNumber),
        "auto-block-prefixes": ("autoBlockPrefixes", .flag),
    ]

    private enum Kind { case text, nullableText, number, nullableNumber, flag, list }

    static func otpApps(_ words: [String], admin: APIClient) async throws {
        let options = Options(Array(words.dropFirst()))
        let args = options.positional
        func arg(_ index: Int) -> String {
            guard index < args.count else { fail(otpUsage) }
            return args[index]
        }
        switch words.first {
        case "list":
            try output(await admin.send(
                AdminWire.Endpoints.listOTPApplications, ["tenantId": arg(0)], as: AdminWire.List<AdminWire.OTPApplication>.self))
        case "show":
            try output(await admin.send(
                AdminWire.Endpoints.getOTPApplication, ["tenantId": arg(0), "appId": arg(1)], as: AdminWire.OTPApplication.self))
        case "create":
            try output(await admin.send(
                AdminWire.Endpoints.createOTPApplication, ["tenantId": arg(0)], body: try settings(options), as: AdminWire.CreatedOTPApplication.self))
        case "update":
            try output(await admin.send(
                AdminWire.Endpoints.updateOTPApplication, ["tenantId": arg(0), "appId": arg(1)], body: try settings(options), as: AdminWire.OTPApplication.self))
        case "conversion":
            try output(await admin.send(
                AdminWire.Endpoints.getConversion, ["tenantId": arg(0), "appId": arg(1)], as: AdminWire.Conversion.self))
        case "template":
            let body = try JSONSerialization.data(withJSONObject: ["body": arg(5)])
            try await admin.sendRaw(
                AdminWire.Endpoints.putTemplate, ["tenantId": arg(0), "appId": arg(1), "group": arg(2), "channel": arg(3), "language": arg(4)], body: body)
            print("saved")
        default:
            fail(otpUsage)
        }
    }

    static func balance(_ words: [String], admin: APIClient) async throws {
        guard let tenant = words.first else { fail(otpUsage) }
        let tenantPath = ["tenantId": tenant]
        if words.count > 1 {
            let body = try JSONSerialization.data(withJSONObject: ["amount": words[1]])
            let data = try await admin.sendRaw(AdminWire.Endpoints.adjustVerificationBalance, tenantPath, body: body)
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(String(decoding: try await admin.sendRaw(AdminWire.Endpoints.getVerificationBalance, tenantPath), as: UTF8.self))
        }
    }

    /// The JSON body of a create or update, typed from the flags given.
    private static func settings(_ options: Options) throws -> JSONValue {
        var object: [String: JSONValue] = [:]
        for (flag, (key, kind)) in settingFlags {
            guard let raw = options.value(flag) else { continue }
            switch kind {
            case .text: object[key] = .string(raw)
            case .nullableText: object[key] = raw == "none" ? .null : .string(raw)
            case .number, .nullableNumber:
                if kind == .nullableNumber, raw == "none" { object[key] = .null; continue }
                guard let number = Int(raw) else { fail("--\(flag) must be a whole number") }
                object[key] = .number(Double(number))
            case .flag:
                guard let value = Bool(raw) else { fail("--\(flag) must be true or false") }
                object[key] = .bool(value)
            case .list:
                object[key] = .array(raw.split(separator: ",").map { .string(String($0)) })
            }
        }
        return .object(object)
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
        let options = Options(Array(words.dropFirst()))
        let args = options.positional
        guard let tenant = args.first else { fail(testNumbersUsage) }
        switch words.first {
        case "list": try output(await admin.send(AdminWire.Endpoints.listTestNumbers, ["tenantId": tenant], as: AdminWire.List<AdminWire.TestNumber>.self))
        case "add":
            guard args.count == 3 else { fail(testNumbersUsage) }
            let body = AdminWire.TestNumber(destination: args[1], code: args[2], confirmed: options.value("confirmed") == "yes")
            try output(await admin.send(AdminWire.Endpoints.addTestNumber, ["tenantId": tenant], body: body, as: AdminWire.TestNumber.self))
        case "remove":
            guard args.count == 2 else { fail(testNumbersUsage) }
            try await admin.sendRaw(AdminWire.Endpoints.removeTestNumber, ["tenantId": tenant, "destination": args[1]])
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
        let options = Options(Array(words.dropFirst()))
        let args = options.positional
        guard let tenant = args.first else { fail(prefixBlocksUsage) }
        switch words.first {
        case "list" where args.count == 1:
            try output(await admin.send(AdminWire.Endpoints.listPrefixBlocks, ["tenantId": tenant], as: AdminWire.List<AdminWire.PrefixBlock>.self))
        case "pin" where args.count == 2:
            let body = AdminWire.PrefixBlockRequest(prefix: args[1], applicationId: options.value("app"))
            try output(await admin.send(AdminWire.Endpoints.pinPrefixBlock, ["tenantId": tenant], body: body, as: AdminWire.PrefixBlock.self))
        case "lift" where args.count == 2:
            let app = options.value("app").map { "applicationId=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) }
            try await admin.sendRaw(AdminWire.Endpoints.liftPrefixBlock, ["tenantId": tenant, "prefix": args[1]], query: app)
            print("lifted")
        default: fail(prefixBlocksUsage)
        }
    }
}
