import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseWiring
import GatehouseTesting
import GatehouseVerificationEngine
@testable import GatehousePossessionEngine

/// A possession engine over a fresh database with the verification engine's codes (wired as
/// the server wires them), a recording delivery, a manual clock and two tenants.
final class PossessionHarness: @unchecked Sendable {
    let store: TestDatabase
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let engine: PossessionEngine
    let verification: VerificationEngine
    let dispatcher: DeliveryDispatcher
    let delivery = RecordedMessages()
    let tenantID: String
    let otherTenantID: String
    let caller: PossessionEngine.Caller
    let otherCaller: PossessionEngine.Caller
    static let secret = [UInt8](repeating: 9, count: 32)
    static let number = "+14165550172"

    init(
        _ kind: TestDatabaseKind, environment setting: PossessionSettings.Environment = .production, carriers: [any CarrierProvider] = [],
        carrierDeadline: TimeInterval = 20
    ) async throws {
        let clock = self.clock
        store = try await TestDatabase.migrated(kind, EngineMigrations.all, clock: clock)
        let environment = Environment.test(database: store.database, clock: clock)
        let directory = TenantDirectory(environment: environment)
        tenantID = try await directory.createTenant(name: "Acme").id
        otherTenantID = try await directory.createTenant(name: "Other").id
        let verification = VerificationEngine(environment: environment, delivery: delivery)
        self.verification = verification
        dispatcher = DeliveryDispatcher(engine: verification)
        engine = PossessionEngine(environment: environment, codes: verification, carriers: carriers, keys: try PossessionKeys(secret: Self.secret), allowsDevelopmentCarriers: false,
            carrierDeadline: carrierDeadline)
        try await engine.saveSettings(tenantID: tenantID, PossessionSettings(environment: setting), carrierSecret: nil)
        try await engine.saveSettings(tenantID: otherTenantID, PossessionSettings(environment: setting), carrierSecret: nil)
        caller = try await Self.caller(engine, tenantID)
        otherCaller = try await Self.caller(engine, otherTenantID)
    }

    static func caller(_ engine: PossessionEngine, _ tenantID: String) async throws -> PossessionEngine.Caller {
        let client = try await engine.issueClient(tenantID: tenantID, label: "backend")
        return try await engine.caller(bearer: try await engine.accessToken(clientID: client.client.id, clientSecret: client.secret).token)
    }

    func start(_ input: StartInput = StartInput(flowType: "mobile", phoneNumber: number)) async throws -> PossessionEngine.Started {
        try await engine.start(input, caller: caller, issuer: "https://gatehouse.example")
    }

    /// The latest code delivered to the number, once the dispatcher ran.
    func code() async throws -> String {
        try await dispatcher.drain()
        guard let message = delivery.messages.last else { throw TestSetupError("no code was delivered") }
        return String(message.body.filter(\.isNumber).suffix(6))
    }

    /// Makes the tenant's carrier a CAMARA one at `operator.example`.
    func useCarrier() async throws {
        try await engine.saveSettings(tenantID: tenantID, PossessionSettings(carrier: CamaraSettings(
            authorizationEndpoint: URL(string: "https://op.example/authorize")!, tokenEndpoint: URL(string: "https://op.example/token")!,
            apiBase: URL(string: "https://op.example")!, clientId: "gh", redirectUri: URL(string: "https://gh.example/back")!)), carrierSecret: "s")
    }

    func close() { store.close() }
}

final class RecordedMessages: MessageDelivery, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [OutboundMessage] = []
    func deliver(_ message: OutboundMessage) async throws { lock.withLock { stored.append(message) } }
    var messages: [OutboundMessage] { lock.withLock { stored } }
}

/// A carrier whose answer the test sets, counting its calls.
final class ScriptedCarrier: CarrierProvider, @unchecked Sendable {
    let name = "camara"
    private let lock = NSLock()
    var result: CarrierResult = .verified
    var delay: UInt64 = 0
    /// When set, each check waits for it after signalling `entered`: a test acts while the operator is asked.
    var hold: Latch?
    /// Signalled when a check reaches the operator.
    let entered = Latch()
    private(set) var calls = 0

    func authorizationURL(_ settings: CamaraSettings, state: String, phoneNumber: String?) -> URL {
        URL(string: settings.authorizationEndpoint.absoluteString + "?state=" + state)!
    }

    func verify(_ settings: CamaraSettings, clientSecret: String, code: String, phoneNumber: String) async -> CarrierResult {
        let (result, hold) = lock.withLock { calls += 1; return (self.result, self.hold) }
        entered.signal()
        if let hold { await hold.wait() }
        if delay > 0 { try? await Task.sleep(nanoseconds: delay) }
        return result
    }
}
