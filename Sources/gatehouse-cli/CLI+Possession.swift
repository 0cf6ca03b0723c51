import Foundation
import GatehouseClientCore
import GatehousePossession
import GatehouseProveClient
import GatehouseWire

/// `gatehouse-cli possession …`: a whole possession flow from a terminal, playing both the
/// app's backend (the v3 client of the sample backend, with the tenant's client credentials)
/// and the device (GatehousePossession, test mode by default); and the operator's settings,
/// clients and identity directory.
extension CLI {
    static let possessionUsage = """
        usage: gatehouse-cli possession run PHONE [--dob YYYY-MM-DD | --ssn LAST4] [--otp CODE] [--mode test|live] [--retry yes]
                                            [--first-name NAME] [--last-name NAME]
               (test mode: a number ending in an even digit passes the carrier check, an odd one asks for the code 1234,
                one ending in 00 or 99 finds the check unavailable; live: the code goes through the outbox or your provider)
        operator (admin token):
               gatehouse-cli possession settings [sandbox|production] | clients | client-create LABEL | import FILE.json
        options: --tenant ID (default: the development tenant); --client-id ID --client-secret SECRET (default: dev-credentials.json)
        """

    static func possession(_ words: [String], url: URL, admin: APIClient, credentials: [String: Any]?, logger: (@Sendable (String) -> Void)?) async throws {
        let options = Options(
            Array(words.dropFirst()), known: ["tenant", "client-id", "client-secret", "ssn", "dob", "retry", "otp", "mode", "first-name", "last-name"],
            takes: ["run": 1, "settings": 1, "clients": 0, "client-create": 1, "import": 1][words.first ?? ""])
        let arguments = options.positional
        let tenant = options.value("tenant") ?? credentials?["tenantId"] as? String ?? ""
        let tenantPath = ["tenantId": tenant]
        switch words.first {
        case "run":
            guard arguments.count == 1 else { fail(possessionUsage) }
            try await possessionRun(phone: arguments[0], options: options, url: url, credentials: credentials, logger: logger)
        case "settings":
            if let environment = arguments.first {
                var current = try await admin.call(AdminWire.Endpoints.getPossessionSettings, tenantPath)
                current.environment = environment
                current.hasCarrierSecret = nil
                current.identities = nil
                try output(await admin.call(AdminWire.Endpoints.putPossessionSettings, tenantPath, body: current))
            } else {
                try output(await admin.call(AdminWire.Endpoints.getPossessionSettings, tenantPath))
            }
        case "clients": try output(await admin.call(AdminWire.Endpoints.listPossessionClients, tenantPath))
        case "client-create":
            guard arguments.count == 1 else { fail(possessionUsage) }
            try output(await admin.call(AdminWire.Endpoints.createPossessionClient, tenantPath, body: AdminWire.CreatePossessionClient(label: arguments[0])))
        case "import":
            guard arguments.count == 1, let data = FileManager.default.contents(atPath: arguments[0]) else { fail("cannot read \(arguments.first ?? "FILE")") }
            let body = try JSONDecoder().decode(AdminWire.IdentityImport.self, from: data)
            try output(await admin.call(AdminWire.Endpoints.importIdentities, tenantPath, body: body))
        default: fail(possessionUsage)
        }
    }

    static func possessionRun(phone: String, options: Options, url: URL, credentials: [String: Any]?, logger: (@Sendable (String) -> Void)?) async throws {
        let stored = credentials?["possession"] as? [String: Any]
        guard let clientID = options.value("client-id") ?? stored?["clientId"] as? String,
            let clientSecret = options.value("client-secret") ?? stored?["clientSecret"] as? String
        else { fail("no possession client: pass --client-id and --client-secret, or run against `make run`'s dev-credentials.json") }
        let backend = ProveClient(baseURL: url, clientID: clientID, clientSecret: clientSecret)
        let started = try await backend.start(ProveWire.StartRequest(
            flowType: "mobile", phoneNumber: phone, ssn: options.value("ssn"), dob: options.value("dob"), allowOTPRetry: options.value("retry") == "yes"))
        print("started flow \(started.correlationId)")
        let steps = TerminalSteps(code: options.value("otp"))
        var builder = PossessionAuth.builder(authFinish: steps).withOtpFallback(otpStart: steps, otpFinish: steps).withBaseURL(url)
        if options.value("mode") ?? "test" == "test" { builder = builder.withMobileAuthTestMode() }
        if let logger { builder = builder.withLogger(logger) }
        let authId = try await builder.build().authenticate(started.authToken)
        print("possession proved (\(steps.usedCode ? "by the code" : "by the carrier check")); AuthFinish got authId \(authId)")
        let validated = try await backend.validate(correlationId: started.correlationId)
        print("validate: success \(validated.success), challenge missing \(validated.challengeMissing)")
        guard validated.success else { refuse("validate: possession was not proved for this flow") }
        let challenged = try await backend.challenge(ProveWire.ChallengeRequest(correlationId: started.correlationId))
        guard challenged.success, var person = challenged.individual else { refuse("challenge: no identity matched (give --dob or --ssn)") }
        print("pre-fill:")
        try output(person)
        if let first = options.value("first-name") { person.firstName = first }
        if let last = options.value("last-name") { person.lastName = last }
        let completed = try await backend.complete(ProveWire.CompleteRequest(correlationId: started.correlationId, individual: person))
        print("complete:")
        try output(completed)
        if !completed.success { refuse("complete: the individual was not verified") }
    }
}

// Safe: `used` is only read and written under `lock`; `code` is an immutable `let` String.
/// OTP steps answered from the terminal (or `--otp`), and AuthFinish, for the CLI.
final class TerminalSteps: OtpStartStep, OtpFinishStep, AuthFinishStep, @unchecked Sendable {
    private let code: String?
    private let lock = NSLock()
    private var used = false

    init(code: String?) { self.code = code }

    var usedCode: Bool { lock.withLock { used } }

    func execute(phoneNumberNeeded: Bool, phoneValidationError: PossessionAuthError?, callback: OtpStartStepCallback) {
        lock.withLock { used = true }
        if phoneValidationError != nil { FileHandle.standardError.write(Data("that number was refused\n".utf8)) }
        guard phoneNumberNeeded else {
            print("the carrier check did not prove the line; sending a code")
            return callback.onSuccess(input: nil)
        }
        print("phone number: ", terminator: "")
        fflush(stdout)
        guard let number = readLine(), !number.isEmpty else { return callback.onError() }
        callback.onSuccess(input: OtpStartInput(phoneNumber: number))
    }

    func execute(otpError: PossessionAuthError?, callback: OtpFinishStepCallback) {
        if otpError != nil { FileHandle.standardError.write(Data("that code was wrong\n".utf8)) }
        if let code, otpError == nil { return callback.onSuccess(input: OtpFinishInput(otp: code)) }
        print("code: ", terminator: "")
        fflush(stdout)
        guard let entered = readLine(), !entered.isEmpty else { return callback.onError() }
        callback.onSuccess(input: OtpFinishInput(otp: entered))
    }

    func execute(authId: String) {}
}
