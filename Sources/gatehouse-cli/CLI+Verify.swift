import Foundation
import GatehouseClientCore
import GatehouseVerification
import GatehouseWire

/// `gatehouse-cli verify …` and `outbox`: the verification flow from a terminal, like the
/// vendor's sample CLI. Credentials come from `APP_KEY`/`SECRET` or the development file.
extension CLI {
    static let verifyUsage = """
        usage: gatehouse-cli verify start NUMBER [--method sms|callout] [--language TAG]... [--custom TEXT]
                                              [--template-group NAME] [--autofill domain|none]  (sent as sms.autofill {"type":…})
               gatehouse-cli verify status ID [--method sms|callout] | verify status --number NUMBER
               gatehouse-cli verify report ID CODE [--method sms|callout] | verify report --number NUMBER CODE [--method …]
               gatehouse-cli outbox NUMBER_OR_EMAIL [--code yes]   (newest first; --code: just the newest code)
        --custom: up to 4096 characters of your own, kept with the verification and passed to the
                  application's request callback (DIDWW's `custom`); never sent to the phone
        exit: 0 verified or sent, 1 refused or a code that did not verify, 3 server unreachable, 4 retry later
        environment: GATEHOUSE_URL (or BASE_URL), APP_KEY, SECRET (public authentication when SECRET is unset)
        """

    static func verify(
        _ words: [String], url: URL, admin: APIClient? = nil, credentials: [String: Any]?, logger: (@Sendable (String) -> Void)?
    ) async throws {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
        let development = credentials?["verification"] as? [String: String]
        guard let appKey = environment["APP_KEY"] ?? development?["appKey"] else { fail("set APP_KEY (and SECRET)\n\(verifyUsage)") }
        let secret = environment["APP_KEY"] == nil ? development?["secret"] : environment["SECRET"]
        let auth: AuthorizationMethod = secret.map { .basic(appKey: appKey, secret: $0) } ?? .public(appKey: appKey)
        let client = VerificationClient(
            environment: .custom(url), auth: auth, configuration: Configuration(timeout: 30, logger: logger.map(CLILogger.init)))
        let options = Options(
            Array(words.dropFirst()), known: ["method", "language", "template-group", "autofill", "custom", "number"],
            takes: ["start": 1, "status": 1, "report": 2][words.first ?? ""])
        let method = try options.method()
        switch words.first {
        case "start":
            guard let number = options.positional.first else { fail(verifyUsage) }
            let languages = options.all("language")
            let group = options.value("template-group")
            let sms = method == .sms && (languages.isEmpty == false || group != nil || options.value("autofill") != nil)
                ? SMSOptions(languages: languages.isEmpty ? nil : languages, autofill: try options.autofill(), templateGroup: group) : nil
            let callout = method == .callout && (languages.isEmpty == false || group != nil)
                ? CalloutOptions(languages: languages.isEmpty ? nil : languages, templateGroup: group) : nil
            let started = try await client.start(destination: number, method: method, sms: sms, callout: callout, custom: options.value("custom"))
            print("id: \(started.id)\nstatus: \(started.status)\nexpires: \(started.expiresAt)")
            if let reason = started.errorDetail { print("reason: \(reason)") }
            if started.errorCode == "denied_invalid_callback_response" {
                refuse("denied: the application's request callback failed: " + (await callbackFailure(appKey: appKey, admin: admin, credentials: credentials)
                    ?? started.errorDetail ?? "see gatehouse-cli otp-apps show TENANT APP, which keeps its last failure"))
            }
            if started.status == .denied { refuse("denied (\(started.errorCode ?? "no reason given"))") }
            if case .sms(let details)? = started.details {
                print("template: \(details.template ?? "-") (\(details.language ?? "-"))")
                // The stored marker, as `sms.autofill` {"type", "value"} came back.
                if let autofill = details.autofill { print("autofill: \(autofill.type) \(autofill.value)") }
            }
        case "status":
            let result: VerificationResult
            if let number = options.value("number") {
                result = try await client.status(number: number)
            } else if let id = options.positional.first {
                result = try await client.status(Verification(id: id, destination: "", deliveryMethod: method, expiresAt: Date()))
            } else { fail(verifyUsage) }
            show(result)
        case "report":
            let result: VerificationResult
            if let number = options.value("number"), let code = options.positional.first {
                result = try await client.verify(number: number, code: code, method: method)
            } else if options.positional.count == 2 {
                let handle = Verification(id: options.positional[0], destination: "", deliveryMethod: method, expiresAt: Date())
                result = try await client.verify(handle, code: options.positional[1])
            } else { fail(verifyUsage) }
            show(result)
            // A code that did not verify is a refusal, for scripts as for people.
            if result.status != .verified { refuse("the code did not verify (\(result.status))") }
        default:
            fail(verifyUsage)
        }
    }

    /// Why the callback of the application with `appKey` last failed, through the admin API when it answers.
    static func callbackFailure(appKey: String, admin: APIClient?, credentials: [String: Any]?) async -> String? {
        guard let admin, let tenant = credentials?["tenantId"] as? String,
            let apps = try? await admin.call(AdminWire.Endpoints.listOTPApplications, ["tenantId": tenant]),
            let app = apps.data.first(where: { $0.appKey == appKey }),
            let shown = try? await admin.call(AdminWire.Endpoints.getOTPApplication, ["tenantId": tenant, "appId": app.id])
        else { return nil }
        return shown.lastCallbackFailure?.reason
    }

    static func show(_ result: VerificationResult) {
        print("id: \(result.id)\nstatus: \(result.status)")
        if let detail = result.errorDetail { print("reason: \(detail)") }
    }

    /// Prints what the development outbox holds for a recipient, newest first; with `--code`,
    /// only the code in the newest message.
    static func outbox(_ words: [String], admin: APIClient) async throws {
        let options = Options(words, known: ["code"], takes: 1)
        guard let recipient = options.positional.first else { fail("usage: gatehouse-cli outbox NUMBER_OR_EMAIL [--code yes]") }
        let encoded = recipient.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? recipient
        let messages = try await admin.call(AdminWire.Endpoints.readOutbox, query: "to=\(encoded)")
        if options.value("code") != nil {
            // An SMS writes the code whole; a call's text speaks it digit by digit ("1 2 3 4 5 6").
            guard let newest = messages.data.first,
                  let range = newest.body.range(of: #"\d{4,10}"#, options: .regularExpression)
                    ?? newest.body.range(of: #"\d(?: \d){3,9}"#, options: .regularExpression)
            else {
                refuse("no code in the outbox for \(recipient)")
            }
            print(newest.body[range].filter(\.isNumber))
            return
        }
        for message in messages.data { print("\(message.createdAt) \(message.channel) to \(message.to): \(message.body)") }
        if messages.data.isEmpty { print("no messages") }
    }
}

/// Sends the SDK's redacted log lines to standard error.
struct CLILogger: VerificationLogger {
    let write: @Sendable (String) -> Void
    func log(_ message: String) { write(message) }
}

/// `--flag value` options and positional words of one command.
struct Options {
    private(set) var positional: [String] = []
    private var flags: [(String, String)] = []

    /// The words as `--flag value` pairs and positional arguments. A flag the command does not
    /// know is refused (exit 2) before anything is done, with the nearest one it knows; a known
    /// flag left last without a value reads as empty. `takes` is the most arguments the command
    /// takes: one more is refused too (nil: the command checks them itself).
    init(_ words: [String], known: Set<String>, takes: Int? = nil) {
        self.init(parsing: words, known: known)
        if let takes, positional.count > takes {
            CLI.fail("unexpected argument '\(positional[takes])': this command takes " + (takes == 0 ? "no arguments" : "at most \(takes)"))
        }
    }

    private init(parsing words: [String], known: Set<String>) {
        var index = 0
        while index < words.count {
            if words[index] == "--" {
                // Everything after `--` is an argument, even one that starts with `--`.
                positional += words[(index + 1)...]
                return
            }
            if words[index].hasPrefix("--"), words[index].count > 2 {
                // `--name value`, or `--name=value`.
                let flag = words[index].dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(flag[0])
                guard known.contains(name) else { CLI.fail(Self.unknown(name, known: known)) }
                if flag.count == 2 {
                    flags.append((name, String(flag[1])))
                    index += 1
                    continue
                }
                let hasValue = index + 1 < words.count
                flags.append((name, hasValue ? words[index + 1] : ""))
                index += hasValue ? 2 : 1
            } else {
                positional.append(words[index])
                index += 1
            }
        }
    }

    /// "unknown flag --methd (did you mean --method?)", or the flags there are.
    static func unknown(_ name: String, known: Set<String>) -> String {
        if ["verbose", "credentials"].contains(name) {
            return "--\(name) goes before the command: gatehouse-cli --\(name)\(name == "credentials" ? " PATH" : "") <command> …"
        }
        let ranked = known.map { ($0, editDistance(name, $0)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
        if let (nearest, distance) = ranked, distance <= max(2, name.count / 3) {
            return "unknown flag --\(name) (did you mean --\(nearest)?)"
        }
        return "unknown flag --\(name)" + (known.isEmpty ? "; this command takes no flags" : "; it takes " + known.sorted().map { "--" + $0 }.joined(separator: ", "))
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let kept = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = kept
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }

    func value(_ name: String) -> String? { flags.last { $0.0 == name }?.1 }
    func all(_ name: String) -> [String] { flags.filter { $0.0 == name }.map(\.1) }

    func method() throws -> DeliveryMethod {
        switch value("method") ?? "sms" {
        case "sms": return .sms
        case "callout": return .callout
        default: CLI.fail("--method must be sms or callout")
        }
    }

    func autofill() throws -> SMSOptions.Autofill? {
        switch value("autofill") {
        case nil: return nil
        case "domain": return .domain
        case "none": return .disabled
        default: CLI.fail("--autofill must be domain or none")
        }
    }
}
