import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine
import GatehouseFormats

/// A successful read costs no write transaction: the request limits count in memory and the
/// application comes from the node's cache. Only failures are written.
@Suite struct ReadsWriteNothingTests {
    func basic(_ app: OTPApplication, _ secret: String, ip: String = "192.0.2.1") -> TestCall {
        TestCall(authorization: "Basic " + Base64.encode(Array("\(app.appKey):\(secret)".utf8)), ip: ip)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aStatusReadWritesNothing(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let (app, secret) = try await harness.engine.createApplication(tenantID: harness.tenantID, settings: OTPApplicationSettings())
        let caller = try await harness.engine.authenticate(basic(app, secret))
        let (record, _) = try await harness.startAndDeliver("+44 7400 123456", caller: caller)
        let writes = harness.database.writes
        for _ in 0..<20 {
            let reader = try await harness.engine.authenticate(basic(app, secret))
            _ = try await harness.engine.verification(.id(record.id), caller: reader)
        }
        #expect(harness.database.writes == writes)
        let counters = try await harness.store.database.read { db in try db.query("SELECT counter_key FROM rate_counters", []) }
        #expect(counters.isEmpty)

        // A failure is written (the failed-auth lock must survive a restart), once.
        await #expect(throws: VerificationFailure(.unauthorized)) { try await harness.engine.authenticate(basic(app, "wrong")) }
        #expect(harness.database.writes == writes + 1)
    }

    @Test(arguments: TestDatabaseKind.available)
    func limitsStillAnswerWithRetryAfter(_ kind: TestDatabaseKind) async throws {
        var settings = VerificationSettings()
        settings.perIP = 3
        settings.perAccount = 5
        let harness = try await EngineHarness(kind, settings: settings)
        defer { harness.close() }
        harness.clock.set(Date(timeIntervalSince1970: 1_767_225_615))
        let (app, secret) = try await harness.engine.createApplication(tenantID: harness.tenantID, settings: OTPApplicationSettings())
        for _ in 0..<3 { _ = try await harness.engine.authenticate(basic(app, secret)) }
        await #expect(throws: VerificationFailure(.rateLimitPerIP, retryAfter: 45)) {
            try await harness.engine.authenticate(basic(app, secret))
        }
        for _ in 0..<2 { _ = try await harness.engine.authenticate(basic(app, secret, ip: "192.0.2.2")) }
        await #expect(throws: VerificationFailure(.rateLimitPerAccount, retryAfter: 45)) {
            try await harness.engine.authenticate(basic(app, secret, ip: "192.0.2.3"))
        }
        // The next window starts over.
        harness.clock.advance(by: 45)
        _ = try await harness.engine.authenticate(basic(app, secret))
    }

    /// The failed-auth lock is durable: a node started afresh (no memory of its own) on the
    /// same database still refuses the address.
    @Test(arguments: TestDatabaseKind.available)
    func theFailedAuthLockSurvivesARestart(_ kind: TestDatabaseKind) async throws {
        var settings = VerificationSettings()
        settings.failedAuthPerIP = 2
        let harness = try await EngineHarness(kind, settings: settings)
        defer { harness.close() }
        let (app, secret) = try await harness.engine.createApplication(tenantID: harness.tenantID, settings: OTPApplicationSettings())
        for _ in 0..<2 {
            await #expect(throws: VerificationFailure(.unauthorized)) { try await harness.engine.authenticate(basic(app, "wrong")) }
        }
        let restarted = VerificationEngine(
            environment: .test(database: harness.database, clock: harness.clock), delivery: RecordingDelivery(), settings: settings)
        await #expect(throws: VerificationFailure.self) { try await restarted.authenticate(basic(app, secret)) }
        do {
            _ = try await restarted.authenticate(basic(app, secret))
        } catch let failure as VerificationFailure {
            #expect(failure.codes == [.rateLimitFailedAuth])
        }
        // Another address is not affected.
        _ = try await restarted.authenticate(basic(app, secret, ip: "192.0.2.7"))
    }

    /// Two engines on one PostgreSQL: raising an application's minimum on one is refused on
    /// the other as soon as the notice arrives, though its cache entry has not expired.
    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func applicationChangesReachTheOtherNode() async throws {
        let harness = try await EngineHarness(.postgres)
        defer { harness.close() }
        let nodes = try TwoPostgresNodes(store: harness.store, clock: harness.clock)
        await nodes.listening()
        let engines = (
            a: VerificationEngine(environment: nodes.environmentA, delivery: RecordingDelivery()),
            b: VerificationEngine(environment: nodes.environmentB, delivery: RecordingDelivery()))
        var settings = OTPApplicationSettings()
        settings.minimumAuth = .public
        let (app, _) = try await engines.a.createApplication(tenantID: harness.tenantID, settings: settings)
        let publicCall = TestCall(authorization: "Application \(app.appKey)", ip: "192.0.2.9")
        #expect(try await engines.b.authenticate(publicCall).mode == .public)
        var raise = OTPApplicationSettings()
        raise.minimumAuth = .basic
        _ = try await engines.a.updateApplication(tenantID: harness.tenantID, id: app.id, settings: raise)
        await nodes.bInvalidations.waitForReceived(1)
        await #expect(throws: VerificationFailure(.unauthorized)) { try await engines.b.authenticate(publicCall) }
        await nodes.close()
    }
}
