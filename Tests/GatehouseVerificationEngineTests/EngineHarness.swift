import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseTesting
@testable import GatehouseVerificationEngine
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An engine on a fresh database with a tenant, a manual clock, a recording delivery and
/// a scripted callback endpoint.
final class EngineHarness: @unchecked Sendable {
    let store: TestDatabase
    /// The engine's database, counting transactions.
    let database: CountingDatabase
    let clock = ManualClock()
    let engine: VerificationEngine
    let dispatcher: DeliveryDispatcher
    let delivery = RecordingDelivery()
    let callbacks = ScriptedHTTP()
    let tenantID: String

    /// - Parameter provider: sends instead of `delivery`.
    /// - Parameter http: calls the request callbacks instead of `callbacks`.
    /// - Parameter interpose: wraps the store's database under the engine's.
    init(
        _ kind: TestDatabaseKind, settings: VerificationSettings = VerificationSettings(), provider: (any MessageDelivery)? = nil,
        http: (any OutboundHTTP)? = nil, interpose: ((any Database) -> any Database)? = nil
    ) async throws {
        let clock = self.clock
        store = try await TestDatabase.migrated(kind, CoreMigrations.all + VerificationMigrations.all, clock: clock)
        database = CountingDatabase(interpose?(store.database) ?? store.database)
        let environment = Environment.test(database: database, clock: clock, http: http ?? callbacks)
        tenantID = try await TenantDirectory(environment: environment).createTenant(name: "Acme").id
        engine = VerificationEngine(environment: environment, delivery: provider ?? delivery, settings: settings)
        dispatcher = DeliveryDispatcher(engine: engine)
        _ = try await engine.adjustBalance(tenantID: tenantID, byMicros: 10_000_000)
    }

    func close() { store.close() }

    /// An application and a caller for it in the given mode.
    func caller(_ mode: AuthMode = .application, configure: (inout OTPApplicationSettings) -> Void = { _ in }) async throws
        -> VerificationCaller
    {
        var settings = OTPApplicationSettings()
        settings.minimumAuth = .public
        configure(&settings)
        let (app, _) = try await engine.createApplication(tenantID: tenantID, settings: settings)
        return VerificationCaller(application: app, mode: mode)
    }

    /// Starts, runs the dispatcher until the code was handed to delivery, and returns the
    /// record and code.
    func startAndDeliver(_ destination: String, caller: VerificationCaller, method: String = "sms") async throws
        -> (VerificationRecord, String)
    {
        let record = try await engine.start(StartRequest(destination: destination, deliveryMethod: method), caller: caller)
        try await dispatcher.drain()
        let dispatched = try await engine.verification(.id(record.id), caller: caller)
        guard dispatched.dispatchedAt != nil, let message = delivery.messages.last(where: { $0.to == record.destination }) else {
            throw TestSetupError("verification \(record.id) was not dispatched")
        }
        return (dispatched, String(message.body.filter(\.isNumber).suffix(record.codeLength)))
    }
}

/// Keeps what would have been sent; can be told to fail.
final class RecordingDelivery: MessageDelivery, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [OutboundMessage] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<OutboundMessage, Never>)] = []
    var failing = false

    func deliver(_ message: OutboundMessage) async throws {
        if lock.withLock({ failing }) { throw DeliveryError("provider down") }
        let ready = lock.withLock { () -> [(OutboundMessage, CheckedContinuation<OutboundMessage, Never>)] in
            stored.append(message)
            let due = waiters.filter { $0.count <= stored.count }
            waiters.removeAll { $0.count <= stored.count }
            return due.map { (stored[$0.count - 1], $0.continuation) }
        }
        for (message, waiter) in ready { waiter.resume(returning: message) }
    }

    var messages: [OutboundMessage] { lock.withLock { stored } }

    /// The `number`th message (from 1), once it has been delivered.
    func message(_ number: Int) async -> OutboundMessage {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> OutboundMessage? in
                if stored.count >= number { return stored[number - 1] }
                waiters.append((number, continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// Answers callback requests with a scripted reply and records them.
final class ScriptedHTTP: OutboundHTTP, @unchecked Sendable {
    private let lock = NSLock()
    private var reply: (Int, Data) = (200, Data(#"{"action":"allow"}"#.utf8))
    private var failure: (any Error)?
    private(set) var requests: [OutboundRequest] = []

    func answer(_ status: Int, _ body: String) { lock.withLock { reply = (status, Data(body.utf8)); failure = nil } }
    func fail(_ error: any Error) { lock.withLock { failure = error } }
    var received: [OutboundRequest] { lock.withLock { requests } }

    func send(_ request: OutboundRequest) async throws -> (Data, OutboundResponse) {
        let (reply, failure) = lock.withLock { () -> ((Int, Data), (any Error)?) in
            requests.append(request)
            return (self.reply, self.failure)
        }
        if let failure { throw failure }
        return (reply.1, OutboundResponse(statusCode: reply.0, headerFields: []))
    }
}

/// A request's proving parts as a test writes them, read the way the DIDWW dialect reads them.
struct TestCall {
    var authorization: String?
    var timestamp: String?
    var method = "GET"
    var path = "/api/v1/verifications/x"
    var body: [UInt8] = []
    var contentType: String?
    var ip = "192.0.2.1"

    var credential: VerificationCredential? {
        RequestSigner.credential(
            authorization: authorization, timestamp: timestamp, method: method, body: body, contentType: contentType, path: path)
    }
}

extension VerificationEngine {
    func authenticate(_ call: TestCall) async throws -> VerificationCaller {
        try await authenticate(call.credential, clientAddress: call.ip)
    }
}
