import Foundation
import GatehouseAuth

/// `gatehouse-cli auth …`: OTP sign-in and the session from a terminal, tokens kept in a
/// locked file so several CLI processes share one session safely.
extension CLI {
    static let authUsage = """
        usage: gatehouse-cli auth request-otp (--phone NUMBER | --email ADDRESS) [--name NAME]
               gatehouse-cli auth verify (--phone NUMBER | --email ADDRESS) CODE
               gatehouse-cli auth activate | profile [--name NAME] [--timezone ZONE] | sessions
               gatehouse-cli auth logout [SESSION_ID] | delete
        environment: API_KEY (the platform key; default: the development IOS key),
                     GATEHOUSE_TOKEN_FILE (default: data/cli-tokens.json)
        """

    /// The signed-in session of `auth verify`, kept in the token file.
    static func authClient(url: URL, credentials: [String: Any]?, logger: (@Sendable (String) -> Void)?) -> (AuthClient, tokenFile: String) {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
        // The development tenant's key of the app to be (APP_PLATFORM: IOS, ANDROID or WEB).
        let developmentKey = (credentials?["apiKeys"] as? [String: String])?[environment["APP_PLATFORM"]?.uppercased() ?? "IOS"]
        let tokenFile = environment["GATEHOUSE_TOKEN_FILE"] ?? "data/cli-tokens.json"
        let client = AuthClient(
            baseURL: url.appendingPathComponent("api"), apiKey: environment["API_KEY"] ?? developmentKey ?? "",
            tokenStore: FileTokenStore(url: URL(fileURLWithPath: tokenFile)), appVersion: "gatehouse-cli",
            deviceName: ProcessInfo.processInfo.hostName, logger: logger)
        return (client, tokenFile)
    }

    static func auth(_ words: [String], url: URL, credentials: [String: Any]?, logger: (@Sendable (String) -> Void)?) async throws {
        let (client, tokenFile) = authClient(url: url, credentials: credentials, logger: logger)
        let options = Options(Array(words.dropFirst()), known: ["phone", "email", "name", "timezone"], takes: ["verify": 1, "logout": 1][words.first ?? ""] ?? 0)
        switch words.first {
        case "request-otp":
            if let phone = options.value("phone") {
                try await client.requestMobileOtp(phone: phone, name: options.value("name"))
            } else if let email = options.value("email") {
                try await client.requestEmailOtp(email: email, name: options.value("name"))
            } else { fail(authUsage) }
            print("code sent")
        case "verify":
            guard let code = options.positional.first else { fail(authUsage) }
            if let phone = options.value("phone") {
                _ = try await client.verifyMobileOtp(phone: phone, otp: code)
            } else if let email = options.value("email") {
                _ = try await client.verifyEmailOtp(email: email, otp: code)
            } else { fail(authUsage) }
            print("signed in; tokens saved in \(tokenFile)")
        case "activate":
            _ = try await client.activate()
            print("account active")
        case "profile":
            let profile: Profile
            if options.value("name") != nil || options.value("timezone") != nil {
                profile = try await client.updateProfile(name: options.value("name"), timezone: options.value("timezone"))
            } else {
                profile = try await client.profile()
            }
            // With the account's id (the access token's subject), which operators grant workflow credits to.
            var shown = (try JSONSerialization.jsonObject(with: JSONEncoder().encode(profile)) as? [String: Any]) ?? [:]
            if let token = try? await client.session.validAccessToken(), let id = Self.subject(ofAccessToken: token) { shown["accountId"] = id }
            let pretty = try JSONSerialization.data(withJSONObject: shown, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: pretty, as: UTF8.self))
        case "sessions":
            try output(try await client.sessions())
        case "logout":
            if let id = options.positional.first {
                try await client.signOut(session: id)
                print("ended session \(id); this device stays signed in unless that was its own session")
            } else {
                try await client.signOut()
                print("signed out")
            }
        case "delete":
            try await client.deleteAccount()
            print("account deleted")
        default:
            fail(authUsage)
        }
    }

    /// The `sub` of a JWT access token (the account id), read without checking it: the server did.
    static func subject(ofAccessToken token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text), let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return claims["sub"] as? String
    }
}
