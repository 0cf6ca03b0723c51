import Foundation
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing

/// The README's `gatehouse-cli` commands, run as a newcomer runs them against a development
/// server: each one's exit code and what it prints, and one line with the server's code and
/// the next step when it is refused. Part of ExecutableTests, whose tests take turns, so the
/// processes they start do not starve each other on a 2-core machine.
extension ExecutableTests {
    /// The `gatehouse-cli` built beside this test bundle.
    static var cliBinary: String { (binary as NSString).deletingLastPathComponent + "/gatehouse-cli" }

    struct CLI {
        let live: LiveServer
        let home: String

        func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> (status: Int32, output: String) {
            var environment = ["PATH": "/usr/bin:/bin", "GATEHOUSE_TOKEN_FILE": home + "/tokens.json", "GATEHOUSE_MANAGED_API_DIR": home + "/managed"]
            environment.merge(extra) { $1 }
            let child = try ChildProcess(
                path: ExecutableTests.cliBinary, arguments: ["--credentials", live.dataDir + "/dev-credentials.json"] + arguments,
                environment: environment)
            let status = await child.wait(seconds: 60) ?? -1
            return (status, child.text)
        }

        @discardableResult
        func ok(_ arguments: [String], contains: String? = nil, environment: [String: String] = [:]) async throws -> String {
            let (status, output) = try await run(arguments, environment: environment)
            #expect(status == 0, "\(arguments): \(output)")
            if let contains { #expect(output.contains(contains), "\(arguments): \(output)") }
            return output
        }

        /// A refusal: the exit code, and one line naming what went wrong.
        func refused(_ arguments: [String], exit: Int32, line: String, environment: [String: String] = [:]) async throws {
            let (status, output) = try await run(arguments, environment: environment)
            #expect(status == exit, "\(arguments): \(output)")
            // The refusal is the last line: what was printed before it is flushed first.
            let last = output.split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.contains(line), "\(arguments): \(output)")
            #expect(!output.contains("Optional(") && !output.contains("api(status:"), "no Swift dumps: \(output)")
        }
    }

    /// The JSON document in what a command printed (standard error, unbuffered, may come first).
    static func json(_ output: String) throws -> Data {
        guard let start = output.firstIndex(of: "{"), let end = output.lastIndex(of: "}") else { throw TestSetupError("no JSON in \(output)") }
        return Data(output[start...end].utf8)
    }

    @Test(arguments: TestDatabaseKind.available)
    func theReadmesCommandsWorkAsWritten(_ kind: TestDatabaseKind) async throws {
        let google = try await GoogleStandIn.start()
        let live = try await LiveServer.start(kind) { settings in
            settings.googlePlayApiURL = google.baseURL
            settings.googleTokenURL = google.tokenURL
        }
        defer { google.stop() }
        let home = NSTemporaryDirectory() + "gatehouse-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let cli = CLI(live: live, home: home)
        do {
            let tenant = live.credentials.tenantId
            try await cli.ok(["status"], contains: "readyz")
            let created = try await cli.ok(["tenants", "create", "Acme"], contains: "gatehouse-cli balance")
            let acme = try JSONDecoder().decode(AdminWire.Tenant.self, from: Self.json(created)).id
            try await cli.ok(["tenants", "list"], contains: "Acme")
            try await cli.ok(["apps", "create", acme, "iOS app"], contains: "iOS app")
            let key = try await cli.ok(["keys", "create", acme, "iOS app", "--platform", "IOS"], contains: "\"platform\" : \"IOS\"")
            #expect(key.contains("secret"))
            try await cli.ok(["keys", "list", acme], contains: "IOS")
            try await cli.ok(["tenants", "disable", acme], contains: "tenants enable")
            try await cli.ok(["tenants", "enable", acme], contains: "Acme")
            try await cli.refused(["keys", "list", "no-such-tenant"], exit: 1, line: "error 404")
            try await cli.refused(["keys", "create", acme, "x", "--platform", "TV"], exit: 2, line: "--platform must be")

            // Verification with the development application, the outbox and its newest code.
            try await cli.ok(["verify", "start", "+447400123456"], contains: "status: pending")
            // The code is handed to the outbox by the server's dispatcher: let it finish first.
            try await live.app.deliveries.drain()
            let code = try await cli.ok(["outbox", "+447400123456", "--code", "yes"]).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(code.count == 6 && code.allSatisfy(\.isNumber), "\(code)")
            let wrong = code == "000000" ? "111111" : "000000"
            try await cli.refused(["verify", "report", "--number", "+447400123456", wrong], exit: 1, line: "code_invalid")
            try await cli.ok(["verify", "report", "--number", "+447400123456", code], contains: "status: verified")
            // A call speaks the code digit by digit; the outbox still finds it.
            try await cli.ok(["verify", "start", "+447400123460", "--method", "callout"], contains: "status: pending")
            try await live.app.deliveries.drain()
            let spoken = try await cli.ok(["outbox", "+447400123460", "--code", "yes"]).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(spoken.count == 6 && spoken.allSatisfy(\.isNumber), "\(spoken)")
            try await cli.ok(["verify", "report", "--number", "+447400123460", spoken, "--method", "callout"], contains: "status: verified")

            // Public mode with the development callback, then with one that cannot be reached.
            let port = live.port
            let app = try await cli.ok([
                "otp-apps", "create", tenant, "--name", "Shop", "--min-auth", "public", "--callback-url", "http://127.0.0.1:\(port)/dev/verification-callback",
            ], contains: "secret")
            let appKey = try JSONDecoder().decode(AdminWire.CreatedOTPApplication.self, from: Self.json(app)).application.appKey
            try await cli.ok(["verify", "start", "+447400123457"], contains: "status: pending", environment: ["APP_KEY": appKey])
            let broken = try await cli.ok([
                "otp-apps", "create", tenant, "--name", "Broken", "--min-auth", "public", "--callback-url", "http://callback.invalid/cb",
            ])
            let brokenApp = try JSONDecoder().decode(AdminWire.CreatedOTPApplication.self, from: Self.json(broken)).application
            try await cli.refused(
                ["verify", "start", "+447400123458"], exit: 1, line: "its host name does not resolve", environment: ["APP_KEY": brokenApp.appKey])
            try await cli.ok(["otp-apps", "show", tenant, brokenApp.id], contains: "lastCallbackFailure")
            try await cli.ok(["otp-apps", "list", tenant], contains: "Shop")
            try await cli.ok(["balance", tenant, "25.00"], contains: "balance")
            try await cli.refused(["balance", "no-such-tenant"], exit: 1, line: "error 404")

            // Sign-in, as the README walks it.
            try await cli.ok(["auth", "request-otp", "--phone", "+14165550199", "--name", "Jane Doe"], contains: "code sent")
            try await live.app.deliveries.drain()
            let signIn = try await cli.ok(["outbox", "14165550199", "--code", "yes"]).trimmingCharacters(in: .whitespacesAndNewlines)
            try await cli.refused(["auth", "verify", "--phone", "+14165550199", "000001"], exit: 1, line: "error 400")
            try await cli.ok(["auth", "verify", "--phone", "+14165550199", signIn], contains: "signed in")
            let profile = try await cli.ok(["auth", "profile", "--timezone", "America/Toronto"], contains: "America/Toronto")
            // The account id is shown, and a workflow the wallet cannot pay for says how to get credits.
            let accountID = try #require(profile.range(of: #""accountId" : "([^"]+)""#, options: .regularExpression).map {
                String(profile[$0]).components(separatedBy: "\"")[3]
            })
            let document = home + "/notes.txt"
            try "Gatehouse notes for the walkthrough.".write(toFile: document, atomically: true, encoding: .utf8)
            try await cli.refused(["workflows", "run", "wf-doc-001", "document=@" + document], exit: 1, line: "gatehouse-cli workflows grant ACCOUNT_ID N")
            try await cli.ok(["workflows", "grant", accountID, "5"], contains: "5")
            try await cli.ok(["auth", "sessions"])
            // Passkeys: the operator sets the relying party; the signed-in account has none yet.
            try await cli.ok(["passkeys", "config", "--rp-id", "id.example", "--ios-app", "ABCDE12345.com.example.app"], contains: "\"rpId\" : \"id.example\"")
            try await cli.ok(["passkeys", "config"], contains: "\"https://id.example\"")
            try await cli.refused(["passkeys", "config", "--rp-id", "com"], exit: 1, line: "VALIDATION_FAILED")
            try await cli.ok(["passkeys", "list"], contains: "no passkeys")
            try await cli.refused(["passkeys", "delete", "bm9uZQ"], exit: 1, line: "PASSKEY_NOT_FOUND")
            try await cli.refused(["passkeys", "list", "--rp-id", "x"], exit: 2, line: "unknown flag --rp-id")
            try await cli.ok(["auth", "logout"], contains: "signed out")
            try await cli.refused(["auth", "profile"], exit: 5, line: "sign in again")

            // A test number for App Review: nothing sent, its fixed code signs in.
            try await cli.ok(["test-numbers", "add", tenant, "+14155550123", "246810"], contains: "+14155550123")
            try await cli.refused(["test-numbers", "add", tenant, "+14165550299", "123456"], exit: 1, line: "reserved range")
            try await cli.ok(["auth", "request-otp", "--phone", "+14155550123"], contains: "code sent")
            try await live.app.deliveries.drain()
            try await cli.ok(["outbox", "14155550123"], contains: "no messages")
            try await cli.ok(["auth", "verify", "--phone", "+14155550123", "246810"], contains: "signed in")
            try await cli.ok(["test-numbers", "list", tenant], contains: "246810")
            try await cli.ok(["test-numbers", "remove", tenant, "+14155550123"], contains: "removed")

            // The SMS-pumping guard: a pinned prefix holds codes back, for sign-in and the verification API alike.
            try await cli.ok(["prefix-blocks", "pin", tenant, "+447400"], contains: "\"reason\" : \"operator\"")
            try await cli.ok(["prefix-blocks", "list", tenant], contains: "\"prefix\" : \"+447400\"")
            try await cli.refused(["auth", "request-otp", "--phone", "+447400123499"], exit: 1, line: "RATE_LIMITED")
            try await cli.refused(["verify", "start", "+447400123499"], exit: 1, line: "error 429 volume_limit_reached")
            try await cli.refused(["verify", "start", "+447400123499"], exit: 1, line: "gatehouse-cli prefix-blocks lift TENANT PREFIX")
            try await cli.ok(["prefix-blocks", "lift", tenant, "+447400"], contains: "lifted")
            try await cli.refused(["prefix-blocks", "lift", tenant, "+447400"], exit: 1, line: "no active block")
            try await cli.ok(["auth", "request-otp", "--phone", "+447400123499"], contains: "code sent")
            try await cli.refused(["prefix-blocks", "pin", tenant, "447-400"], exit: 1, line: "prefix must be")
            let apps = try JSONDecoder().decode(AdminWire.List<AdminWire.OTPApplication>.self, from: Self.json(try await cli.ok(["otp-apps", "list", tenant])))
            let dev = try #require(apps.data.first)
            try await cli.ok(["otp-apps", "update", tenant, dev.id, "--prefix-hourly-limit", "50", "--country-daily-limit", "none"], contains: "\"prefixHourlyLimit\" : 50")
            // A mistyped flag is refused before anything is done, with the flag meant.
            try await cli.refused(["otp-apps", "update", tenant, dev.id, "--cooldwn", "10"], exit: 2, line: "unknown flag --cooldwn (did you mean --cooldown?)")
            try await cli.refused(["verify", "start", "+447400123480", "--methd", "sms"], exit: 2, line: "unknown flag --methd (did you mean --method?)")
            // An argument too many is refused the same way, before anything is sent.
            try await cli.refused(["verify", "start", "+447400123480", "sms"], exit: 2, line: "unexpected argument 'sms': this command takes at most 1")
            try await cli.refused(["auth", "profile", "extra"], exit: 2, line: "unexpected argument 'extra': this command takes no arguments")
            try await cli.refused(["otp-apps", "show", tenant, dev.id, "more"], exit: 2, line: "unexpected argument 'more'")
            // A calling code no country has reaches no one.
            try await cli.refused(["verify", "start", "+99912345678"], exit: 1, line: "destination_invalid")
            try await live.app.deliveries.drain()
            try await cli.ok(["outbox", "447400123480"], contains: "no messages")
            try await cli.refused(["tenants", "list", "--verbos"], exit: 2, line: "unknown flag --verbos; this command takes no flags")
            try await cli.refused(["tenants", "list", "--verbose"], exit: 2, line: "--verbose goes before the command: gatehouse-cli --verbose <command>")
            // `--name=value`, and `--` before an argument that starts with two dashes.
            try await cli.ok(["otp-apps", "update", tenant, dev.id, "--prefix-hourly-limit=60"], contains: "\"prefixHourlyLimit\" : 60")
            try await cli.ok(["tenants", "create", "--", "--dashes"], contains: "\"name\" : \"--dashes\"")
            try await cli.ok(["otp-apps", "conversion", tenant, dev.id], contains: "\"value\" : \"+447400\"")

            // The store, pretty and labelled; a count that is not a number is refused.
            try await cli.ok(["store", "show"], contains: "pricing-config (credit packages):")
            try await cli.refused(["store", "credits", "com.example.credits500", "lots"], exit: 2, line: "must be a whole number")
            // Google Play: the key file goes in, its email and fingerprint come back, never the key.
            let keyFile = try GoogleServiceAccountKeyFile.generate()
            let keyPath = FileManager.default.temporaryDirectory.appendingPathComponent("play-\(UUID().uuidString).json").path
            try keyFile.json.write(toFile: keyPath, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: keyPath) }
            let play = try await cli.ok(
                ["store", "google-play-config", "--package-name", "com.example.gatehouse", "--service-account-key-file", keyPath, "--production", "false"],
                contains: "\"clientEmail\" : \"\(keyFile.clientEmail)\"")
            #expect(!play.contains("PRIVATE KEY"))
            try await cli.ok(["store", "google-play-config", "--push-audience", "null"], contains: "\"pushAudience\" : null")
            try await cli.ok(["store", "show"], contains: "\"packageName\" : \"com.example.gatehouse\"")
            try await cli.ok(["store", "credits", "--provider", "google", "credits_500", "500"], contains: "\"provider\" : \"google\"")
            try await cli.ok(["store", "show"], contains: "\"platformProductId\" : \"credits_500\"")
            try await cli.ok(["store", "plan", "Pro", "monthly", "com.example.pro.monthly", "--google", "pro:monthly"], contains: "\"google\" : \"pro:monthly\"")
            try await cli.refused(["store", "google-play-config", "--package-name", "nodots"], exit: 1, line: "packageName is not an Android application id")
            // A Play purchase, reported from the Android app's session.
            try await google.register(keyFile)
            try await google.add(package: "com.example.gatehouse", products: [("credits_500", "cli-play-token", [
                "kind": "androidpublisher#productPurchase", "purchaseState": 0, "consumptionState": 0, "orderId": "GPA.7", "acknowledgementState": 0,
            ])])
            let android = ["APP_PLATFORM": "ANDROID"]
            try await cli.ok(["auth", "request-otp", "--phone", "+14165550188"], contains: "code sent", environment: android)
            try await live.app.deliveries.drain()
            let androidCode = try await cli.ok(["outbox", "14165550188", "--code", "yes"]).trimmingCharacters(in: .whitespacesAndNewlines)
            try await cli.ok(["auth", "verify", "--phone", "+14165550188", androidCode], contains: "signed in", environment: android)
            try await cli.ok(["purchases", "verify", "--platform", "google", "credits_500", "cli-play-token"], contains: "accepted: credit_package, 500 credits added")
            try await cli.refused(["purchases", "verify", "--platform", "amazon", "credits_500", "x"], exit: 2, line: "--platform must be apple or google")
            try await cli.ok(["auth", "logout"], contains: "signed out")

            // Possession in test mode, end to end.
            try await cli.ok(["possession", "run", "+12025550142", "--ssn", "6789"], contains: "\"success\" : true")
            try await cli.ok(["possession", "run", "+12025550143", "--dob", "1976-12-09", "--otp", "1234"], contains: "by the code")
            try await cli.refused(["possession", "run", "+12025550143", "--otp", "9999"], exit: 1, line: "possession not proved")

            // No server at all: exit 3 and what to do.
            let (status, output) = try await cli.run(["status"], environment: ["GATEHOUSE_URL": "http://127.0.0.1:\(try freeLoopbackPort())"])
            #expect(status == 3 && output.contains("is it running?"), "\(output)")
            // A signed-in command says so in a line, not Foundation's error dump.
            try await cli.ok(["auth", "request-otp", "--phone", "+14165550187"], contains: "code sent")
            try await live.app.deliveries.drain()
            let lastCode = try await cli.ok(["outbox", "14165550187", "--code", "yes"]).trimmingCharacters(in: .whitespacesAndNewlines)
            try await cli.ok(["auth", "verify", "--phone", "+14165550187", lastCode], contains: "signed in")
            let down = try await cli.run(["auth", "profile"], environment: ["GATEHOUSE_URL": "http://127.0.0.1:\(try freeLoopbackPort())"])
            #expect(down.status == 3 && down.output.contains("no answer from the server") && !down.output.contains("Error Domain"), "\(down.output)")

            // Help, a credentials file that is not there, a key file that is not there.
            let help = try await cli.run(["--help"])
            #expect(help.status == 0 && help.output.contains("usage: gatehouse-cli"), "\(help.output)")
            try await cli.refused(["--credentials", home + "/missing.json", "tenants", "list"], exit: 2, line: "the credentials file \(home)/missing.json does not exist")
            try await cli.refused(["store", "apple-config", "--private-key-file", home + "/AuthKey_NOPE.p8"], exit: 2, line: "--private-key-file \(home)/AuthKey_NOPE.p8: no such file")
        } catch { Issue.record(error) }
        await live.stop()
        try? FileManager.default.removeItem(atPath: home)
    }
}
