import Foundation
import GatehouseProveClient
import GatehouseClientCore
import GatehouseCore
import GatehousePossession
import GatehousePossessionSample
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The seed's three parties over loopback: the live server (with a manual clock), the sample
/// app backend (`/initialize`, `/verify`, `/finish`) calling it with its own v3 client, and
/// the SDK driven by scripted OTP steps, the way an app would.
struct PossessionFixture {
    let live: LiveServer
    let clock: ManualClock
    let backend: SampleBackend
    let admin: APIClient
    let app: AppBackendClient

    static func start(_ kind: TestDatabaseKind) async throws -> PossessionFixture {
        // Whole seconds, as the database keeps time in whole microseconds.
        let clock = ManualClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        let live = try await LiveServer.start(kind, clock: clock)
        let credentials = try #require(live.credentials.possession)
        // A minute per call, not the sample's 15 s: under the whole suite on two cores a call
        // can wait that long for a thread, and a deadline is not what these flows test.
        let client = ProveClient(
            baseURL: live.baseURL, clientID: credentials.clientId, clientSecret: credentials.clientSecret, timeout: 60, now: { clock.now })
        let backend = SampleBackend(client: client)
        try backend.start()
        let admin = APIClient(baseURL: live.baseURL).with(header: "Authorization", "Bearer \(live.credentials.adminToken)")
        return PossessionFixture(live: live, clock: clock, backend: backend, admin: admin, app: AppBackendClient(base: backend.baseURL))
    }

    func stop() async {
        await backend.stop()
        await live.stop()
    }

    var tenant: String { live.credentials.tenantId }

    /// Turns the development tenant into a production one (optionally with a carrier) and
    /// imports identities on numbers of real numbering plans.
    func makeProduction(carrier: AdminWire.CamaraCarrier? = nil, carrierSecret: String? = nil) async throws {
        _ = try await admin.send(
            "PUT", "/admin/v1/tenants/\(tenant)/possession",
            body: AdminWire.PossessionSettings(environment: "production", carrier: carrier, carrierSecret: carrierSecret), as: AdminWire.PossessionSettings.self)
        _ = try await admin.send(
            "POST", "/admin/v1/tenants/\(tenant)/possession/identities",
            body: AdminWire.IdentityImport(identities: [Self.productionIdentity]), as: AdminWire.IdentityImported.self)
    }

    static let productionNumber = "+14165550172"
    static let productionIdentity = AdminWire.Identity(
        phoneNumber: productionNumber, firstName: "Mary", lastName: "Jackson",
        addresses: [ProveWire.Address(address: "39 Queen Street West", city: "Toronto", region: "ON", postalCode: "M5H 2N2")],
        emailAddresses: ["mary@example.com"], dob: "1981-04-09", ssn: "222334444")

    /// The SDK as the seed builds it, with the steps given.
    func sdk(testMode: Bool, steps: ScriptedSteps, carrierCheck: (any CarrierCheck)? = nil) -> PossessionAuth {
        var builder = PossessionAuth.builder(authFinish: steps).withOtpFallback(otpStart: steps, otpFinish: steps)
        if testMode { builder = builder.withMobileAuthTestMode() }
        if let carrierCheck { builder = builder.withCarrierCheck(carrierCheck) }
        return builder.build()
    }

    /// The last code the outbox holds for a number (digits, no `+`).
    func code(for number: String) async throws -> String {
        try await live.app.deliveries.drain()
        let digits = number.filter(\.isNumber)
        let body = try await live.app.environment.database.read { db in
            try db.queryOne("SELECT body FROM outbox_messages WHERE to_address = ? ORDER BY created_at DESC, id DESC LIMIT 1", digits)?.get("body", as: String.self)
        }
        let text = try #require(body, "no code went to \(number)")
        let range = try #require(text.range(of: #"\d{4,6}"#, options: .regularExpression))
        return String(text[range])
    }
}

/// What the app's own networking does against the sample backend (the seed's snippets):
/// JSON in and out, and the session cookie `/initialize` sets.
final class AppBackendClient: @unchecked Sendable {
    let base: URL
    private let cookie = LockedBox<String?>(nil)

    /// No shared cookie jar: every sample backend in the suite is on 127.0.0.1, and cookies do not tell ports apart.
    private let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // Longer than the two calls to Gatehouse that one `/verify` may make at a minute each.
        configuration.timeoutIntervalForRequest = 150
        return URLSession(configuration: configuration)
    }()

    init(base: URL) { self.base = base }

    func initialize(_ body: SampleWire.Initialize) async throws -> String {
        let (data, response) = try await post("/initialize", body)
        guard response.statusCode == 200 else { throw TestSetupError("initialize: \(response.statusCode) \(String(decoding: data, as: UTF8.self))") }
        if let set = response.value(forHTTPHeaderField: "Set-Cookie") { cookie.value = String(set.split(separator: ";")[0]) }
        return try JSONDecoder().decode(SampleWire.Initialized.self, from: data).authToken
    }

    func verify(_ body: SampleWire.Verify) async throws -> [String: Any] { try await json("/verify", body) }
    func finish(_ body: SampleWire.Finish) async throws -> [String: Any] { try await json("/finish", body) }

    private func json(_ path: String, _ body: some Encodable) async throws -> [String: Any] {
        let (data, response) = try await post(path, body)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        guard response.statusCode == 200 else { throw TestSetupError("\(path): \(response.statusCode) \(object)") }
        return object
    }

    private func post(_ path: String, _ body: some Encodable) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let cookie = cookie.value { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        request.httpBody = try JSONEncoder().encode(body)
        let (data, response) = try await session.data(for: request)
        return (data, response as! HTTPURLResponse)
    }
}

/// OTP and AuthFinish steps answering from a script, recording what the SDK asked.
final class ScriptedSteps: OtpStartStep, OtpFinishStep, AuthFinishStep, @unchecked Sendable {
    enum StartAnswer { case confirm, number(String), cancel }
    enum FinishAnswer { case code(@Sendable () async throws -> String), cancel }

    private let lock = NSLock()
    private var startAnswers: [StartAnswer]
    private var finishAnswers: [FinishAnswer]
    private(set) var startCalls: [(needed: Bool, error: PossessionAuthError?)] = []
    private(set) var finishErrors: [PossessionAuthError?] = []
    private(set) var finishedAuthIds: [String] = []

    init(start: [StartAnswer] = [], finish: [FinishAnswer] = []) {
        startAnswers = start
        finishAnswers = finish
    }

    func execute(phoneNumberNeeded: Bool, phoneValidationError: PossessionAuthError?, callback: OtpStartStepCallback) {
        let answer: StartAnswer? = lock.withLock {
            startCalls.append((phoneNumberNeeded, phoneValidationError))
            return startAnswers.isEmpty ? nil : startAnswers.removeFirst()
        }
        switch answer {
        case .confirm: callback.onSuccess(input: nil)
        case .number(let number): callback.onSuccess(input: OtpStartInput(phoneNumber: number))
        case .cancel, nil: callback.onError()
        }
    }

    func execute(otpError: PossessionAuthError?, callback: OtpFinishStepCallback) {
        let answer: FinishAnswer? = lock.withLock {
            finishErrors.append(otpError)
            return finishAnswers.isEmpty ? nil : finishAnswers.removeFirst()
        }
        switch answer {
        case .code(let code):
            Task {
                do { callback.onSuccess(input: OtpFinishInput(otp: try await code())) } catch { callback.onError() }
            }
        case .cancel, nil: callback.onError()
        }
    }

    func execute(authId: String) { lock.withLock { finishedAuthIds.append(authId) } }

    var authFinished: [String] { lock.withLock { finishedAuthIds } }
    var starts: [(needed: Bool, error: PossessionAuthError?)] { lock.withLock { startCalls } }
    var finishes: [PossessionAuthError?] { lock.withLock { finishErrors } }
}
