import Foundation
import GatehouseAuth
import GatehouseClientCore
import GatehouseManagedAPI
import GatehouseVerification
import GatehouseWire
import GatehouseWorkflows

/// `gatehouse-cli`: drives a running Gatehouse over HTTP the way an app or operator would.
/// Connection details come from `dev-credentials.json` (or `--credentials PATH`), or from
/// `GATEHOUSE_URL` and `GATEHOUSE_ADMIN_TOKEN`.
enum CLI {
    static let usage = """
        usage: gatehouse-cli [--credentials PATH] [--verbose] <command>
          status                               health and readiness of the server
          tenants list | tenants create NAME | tenants disable ID | tenants enable ID
          apps list TENANT | apps create TENANT NAME
          keys list TENANT | keys create TENANT LABEL [APP] [--platform IOS|ANDROID|WEB] | keys revoke TENANT KEY
                                               (--platform: a key apps send as x-api-key, which sign-in needs)
          auth request-otp|verify|activate|profile|sessions|logout|delete ...   sign-in (gatehouse-cli auth for details)
          verify start|status|report ...       phone verification (gatehouse-cli verify for details)
          otp-apps list|create|update|template ...   OTP applications (gatehouse-cli otp-apps for details)
          store show|apple-config|google-play-config|credits|plan|trial ...   store setup (gatehouse-cli store for details)
          purchases entitlement|trial|verify ...   purchases of the signed-in account (gatehouse-cli purchases)
          passkeys config|list|rename|delete ...   passkeys: the tenant's relying party, the account's passkeys (gatehouse-cli passkeys)
          workflows list|show|run|report|history ...   workflows and reports (gatehouse-cli workflows for details)
          managed-apis list|show|fetch ...     third-party APIs by name (gatehouse-cli managed-apis for details)
          possession run PHONE ...             a whole possession check with pre-fill (gatehouse-cli possession for details)
          balance TENANT [AMOUNT]              a tenant's verification balance, or credit it
          test-numbers list|add|remove TENANT ...   numbers and emails whose fixed code verifies them (App Review, CI)
          prefix-blocks list|pin|lift TENANT ...   prefixes held back from codes (SMS-pumping guard)
          outbox NUMBER_OR_EMAIL [--code yes]  messages held by the development outbox, newest first (--code: the newest code only)
        """

    static func main(_ arguments: [String]) -> Never {
        Task {
            do {
                try await run(arguments)
                exit(ExitCode.ok.rawValue)
            } catch {
                let failure = failure(for: error)
                fflush(stdout)  // what was printed before comes before the refusal
                FileHandle.standardError.write(Data((failure.line + "\n").utf8))
                exit(failure.exit.rawValue)
            }
        }
        dispatchMain()
    }

    static func run(_ arguments: [String]) async throws {
        var words = arguments
        var credentialsPath = "data/dev-credentials.json"
        var verbose = false
        while let first = words.first, first.hasPrefix("--") {
            words.removeFirst()
            switch first {
            case "--credentials":
                guard !words.isEmpty else { fail(usage) }
                credentialsPath = words.removeFirst()
            case "--verbose": verbose = true
            case "--help", "-h":
                print(usage)
                exit(ExitCode.ok.rawValue)
            default: fail(usage)
            }
        }
        // The commands that take no flags refuse any, as the others refuse those they do not know.
        if ["tenants", "apps", "balance", "status"].contains(words.first ?? "") || (words.first == "keys" && words.dropFirst().first != "create") {
            words = [words[0]] + Options(Array(words.dropFirst()), known: []).positional
        }
        if ["help", "-h"].contains(words.first ?? "") {
            print(usage)
            exit(ExitCode.ok.rawValue)
        }
        let (url, token, credentials) = try connection(credentialsPath)
        let client = APIClient(baseURL: url, logger: verbose ? logToStandardError : nil)
        let admin = client.with(header: "Authorization", "Bearer \(token ?? "")")
        switch (words.first, words.dropFirst().first) {
        case ("auth", _):
            try await auth(Array(words.dropFirst()), url: url, credentials: credentials, logger: verbose ? logToStandardError : nil)
        case ("verify", _):
            try await verify(Array(words.dropFirst()), url: url, admin: token == nil ? nil : admin, credentials: credentials, logger: verbose ? logToStandardError : nil)
        case ("purchases", _):
            try await purchases(Array(words.dropFirst()), url: url, credentials: credentials, logger: verbose ? logToStandardError : nil)
        case ("workflows", _):
            try await workflows(Array(words.dropFirst()), url: url, admin: admin, credentials: credentials, logger: verbose ? logToStandardError : nil)
        case ("managed-apis", _):
            try await managedAPIs(Array(words.dropFirst()), url: url, admin: admin, credentials: credentials, logger: verbose ? logToStandardError : nil)
        case ("possession", _):
            try await possession(Array(words.dropFirst()), url: url, admin: admin, credentials: credentials, logger: verbose ? logToStandardError : nil)
        case ("store", _):
            try await store(Array(words.dropFirst()), admin: admin, credentials: credentials)
        case ("passkeys", _):
            try await passkeys(Array(words.dropFirst()), url: url, admin: admin, credentials: credentials, logger: verbose ? logToStandardError : nil)
        case ("otp-apps", _):
            try await otpApps(Array(words.dropFirst()), admin: admin)
        case ("test-numbers", _):
            try await testNumbers(Array(words.dropFirst()), admin: admin)
        case ("prefix-blocks", _):
            try await prefixBlocks(Array(words.dropFirst()), admin: admin)
        case ("balance", _):
            try await balance(Array(words.dropFirst()), admin: admin)
        case ("outbox", _?):
            try await outbox(Array(words.dropFirst()), admin: admin)
        case ("status", _):
            print("healthz: \(String(decoding: try await client.sendRaw("GET", "/healthz"), as: UTF8.self))")
            print("readyz:  \(String(decoding: try await client.sendRaw("GET", "/readyz"), as: UTF8.self))")
        case ("tenants", "list"): try output(await admin.call(AdminWire.Endpoints.listTenants))
        case ("tenants", "create"):
            let tenant = try await admin.call(AdminWire.Endpoints.createTenant, body: AdminWire.CreateTenant(name: word(words, 2)))
            try output(tenant)
            FileHandle.standardError.write(Data("""
                next: its verification balance is 0.00, so a start is refused (402) until you credit it:
                  gatehouse-cli balance \(tenant.id) 10.00
                and sign-in needs a platform key: gatehouse-cli keys create \(tenant.id) "iOS app" --platform IOS

                """.utf8))
        case ("tenants", "enable"):
            try output(await admin.call(AdminWire.Endpoints.enableTenant, ["tenantId": word(words, 2)]))
        case ("tenants", "disable"):
            try await admin.call(AdminWire.Endpoints.disableTenant, ["tenantId": word(words, 2)])
            print("disabled; gatehouse-cli tenants enable \(word(words, 2)) turns it back on")
        case ("apps", "list"):
            try output(await admin.call(AdminWire.Endpoints.listApplications, ["tenantId": word(words, 2)]))
        case ("apps", "create"):
            try output(await admin.call(
                AdminWire.Endpoints.createApplication, ["tenantId": word(words, 2)], body: AdminWire.CreateApplication(name: word(words, 3))))
        case ("keys", "list"):
            try output(await admin.call(AdminWire.Endpoints.listKeys, ["tenantId": word(words, 2)]))
        case ("keys", "create"):
            let options = Options(Array(words.dropFirst(2)), known: ["platform"], takes: 3)
            guard options.positional.count >= 2 else { fail(usage) }
            let platform = options.value("platform")?.uppercased()
            if let platform, !["IOS", "ANDROID", "WEB"].contains(platform) { fail("--platform must be IOS, ANDROID or WEB") }
            let body = AdminWire.CreateKey(
                label: options.positional[1], applicationId: options.positional.count > 2 ? options.positional[2] : nil, platform: platform)
            try output(await admin.call(AdminWire.Endpoints.createKey, ["tenantId": word(words, 2)], body: body))
        case ("keys", "revoke"):
            try await admin.call(AdminWire.Endpoints.revokeKey, ["tenantId": word(words, 2), "keyId": word(words, 3)])
            print("revoked")
        default: fail(usage)
        }
    }

    /// The server URL, admin token and the development credentials file, if any.
    static func connection(_ credentialsPath: String) throws -> (URL, String?, [String: Any]?) {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
        let json = FileManager.default.contents(atPath: credentialsPath).flatMap {
            try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
        }
        let base = (environment["GATEHOUSE_URL"] ?? environment["BASE_URL"] ?? json?["baseURL"] as? String).flatMap(URL.init(string:))
        guard let base else {
            let why = !FileManager.default.fileExists(atPath: credentialsPath)
                ? "the credentials file \(credentialsPath) does not exist (make run writes data/dev-credentials.json)"
                : json == nil ? "\(credentialsPath) is not a dev-credentials.json" : "\(credentialsPath) names no baseURL"
            fail("no server: \(why); set GATEHOUSE_URL or pass --credentials PATH to a dev-credentials.json")
        }
        return (base, environment["GATEHOUSE_ADMIN_TOKEN"] ?? json?["adminToken"] as? String, json)
    }

    /// A file a flag names, or exit 2 saying which and why.
    static func readFile(_ path: String, flag: String) -> String {
        guard FileManager.default.fileExists(atPath: path) else { fail("--\(flag) \(path): no such file") }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("--\(flag) \(path): cannot be read as UTF-8 text") }
        return text
    }

    @Sendable static func logToStandardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func word(_ words: [String], _ index: Int) -> String {
        guard index < words.count else { fail(usage) }
        return words[index]
    }

    static func output<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// A usage error: the message on standard error, exit 2.
    static func fail(_ message: String) -> Never {
        fflush(stdout)
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(ExitCode.usage.rawValue)
    }

    /// A refusal the CLI itself decides (a wrong code, a refused purchase): exit 1 unless told otherwise.
    static func refuse(_ line: String, exit code: ExitCode = .refused) -> Never {
        fflush(stdout)
        FileHandle.standardError.write(Data((line + "\n").utf8))
        exit(code.rawValue)
    }
}
