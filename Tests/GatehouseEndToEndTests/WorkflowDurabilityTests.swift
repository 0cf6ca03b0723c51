import Foundation
import GatehouseAuth
import GatehouseClientCore
import GatehouseHTTP
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import GatehouseWorkflows
import Testing

/// Runs outlive the process that started them, and events reach streams on other nodes.
@Suite struct WorkflowDurabilityTests {
    /// A `gatehouse serve` child on `dataDir`, once it listens and, in development, once its
    /// banner says `dev-credentials.json` names this start's address (it is written after the
    /// listener opens).
    static func serve(dataDir: String, port: UInt16, database: String? = nil, extra: [String: String] = [:]) async throws -> ChildProcess {
        var environment = ["GATEHOUSE_DATA_DIR": dataDir, "GATEHOUSE_ACCESS_LOG": "off", "PATH": "/usr/bin:/bin"]
        if let database { environment["GATEHOUSE_DATABASE_URL"] = database }
        environment.merge(extra) { $1 }
        let child = try ChildProcess(
            path: ExecutableTests.binary, arguments: ["serve", "--host", "127.0.0.1", "--port", String(port)], environment: environment)
        let production = extra["GATEHOUSE_MODE"] == "production"
        _ = await child.line(within: 30) { production ? $0.contains("\"listening\"") : $0.contains("Gatehouse is running") }
        return child
    }

    @Test func aServerKilledMidRunFinishesTheRunAfterItsRestart() async throws {
        let dataDir = NSTemporaryDirectory() + "gatehouse-restart-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let release = Latch()
        let worker = try StandInServer(waiting: { _, count in
            // The first attempt never answers before its server is killed.
            if count == 1 { await release.wait() }
            return Response.json(raw: Data(#"{"status":"succeeded","result":{"attempt":2}}"#.utf8))
        })
        let port = try freeLoopbackPort()
        let first = try await Self.serve(dataDir: dataDir, port: port)
        let credentials = try JSONDecoder().decode(DevCredentials.self, from: Data(contentsOf: URL(fileURLWithPath: dataDir + "/dev-credentials.json")))
        let base = try #require(URL(string: credentials.baseURL))
        let auth = AuthClient(
            baseURL: base.appendingPathComponent("api"), apiKey: credentials.apiKeys!["IOS"]!, tokenStore: InMemoryTokenStore(), appVersion: "1.0")
        try await auth.requestMobileOtp(phone: "+14165550177")
        let line = try #require(await first.line(within: 10) { $0.contains("outbox: sms to 14165550177") })
        let message = String(line.split(separator: ":", omittingEmptySubsequences: false).dropFirst(2).joined(separator: ":"))
        let code = String(message[try #require(message.range(of: #"\b\d{6}\b"#, options: .regularExpression))])
        _ = try await auth.verifyMobileOtp(phone: "+14165550177", otp: code)
        let admin = APIClient(baseURL: base).with(header: "Authorization", "Bearer \(credentials.adminToken)")
        let tenant = credentials.tenantId
        _ = try await admin.send(
            "PATCH", "/admin/v1/tenants/\(tenant)/workflow-settings",
            body: AdminWire.WorkflowSettingsPatch(workerUrl: .value(worker.url.absoluteString), workerSecret: .value("restart-secret-0123456789")),
            as: AdminWire.WorkflowSettings.self)
        _ = try await admin.send(
            "PUT", "/admin/v1/tenants/\(tenant)/workflows/wf-long-001",
            body: WorkflowExecutorTests.webhook("wf-long-001", credits: 3, timeout: 120), as: AdminWire.WorkflowDefinition.self)
        let accountID = try Self.accountID(dataDir)
        _ = try await admin.send(
            "POST", "/admin/v1/tenants/\(tenant)/accounts/\(accountID)/credits", body: AdminWire.CreditGrant(credits: 5), as: AdminWire.WalletBalance.self)
        let client = WorkflowsClient(baseURL: base.appendingPathComponent("api"), appVersion: "1.0") { try await auth.session.validAccessToken(rejected: $0) }
        let eventID = try #require(try await client.execute(id: "wf-long-001", input: ["url": .string("https://example.com")]).eventId)
        #expect(await worker.arrived.wait(timeout: .seconds(15)))
        #expect(try await client.report(eventId: eventID).status == "running")

        first.signal(SIGKILL)
        _ = await first.wait(seconds: 10)
        let second = try await Self.serve(dataDir: dataDir, port: port)
        defer { second.signal(SIGTERM) }
        let report = try await client.waitForReport(eventId: eventID, timeout: 30)
        #expect(report.status == "succeeded" && report.result == .object(["attempt": .number(2)]))
        #expect(report.creditsCharged == 3 && report.creditsRefunded == 0)
        #expect(worker.requests.count == 2)
        #expect(try await auth.profile().wallet["WALLET"] == 2)
        release.signal()
        second.signal(SIGTERM)
        #expect(await second.wait(seconds: 15) == 0)
        await worker.stop()
    }

    static func accountID(_ dataDir: String) throws -> String {
        let database = try GatehouseApp.openDatabase({ var settings = Settings(); settings.dataDir = dataDir; return settings }())
        defer { database.close() }
        return try database.readBlocking { db in try db.queryOne("SELECT id FROM accounts", [])!.get("id", as: String.self) }
    }

    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func aRunFinishedOnOneNodeReachesAStreamHeldOnAnother() async throws {
        // The stream's own poll is slowed to a minute: only LISTEN/NOTIFY can bring the event in time.
        let f = try await WorkflowsFixture.start(.postgres) { $0.workflowStreamHeartbeat = 60 }
        let worker = try StandInServer { _, _ in Response(status: 202) }
        _ = try await f.settings(.init(workerUrl: .value(worker.url.absoluteString), workerSecret: .value(WorkflowExecutorTests.secret)))
        try await f.define(WorkflowExecutorTests.webhook("wf-deep-010", credits: 0))
        let port = try freeLoopbackPort()
        let dataDir = NSTemporaryDirectory() + "gatehouse-node2-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let second = try await Self.serve(dataDir: dataDir, port: port, database: f.live.app.settings.databaseURL)
        defer { second.signal(SIGTERM) }

        let ready = Latch()
        let eventID = LockedBox<String?>(nil)
        let finished = Task { () -> DatacoveWire.Report? in
            for try await update in f.client.reportUpdates() {
                if update.report.status == "ready" { ready.signal() }
                if update.report.eventId == eventID.value, update.report.isFinished { return update.report }
            }
            return nil
        }
        #expect(await ready.wait(timeout: .seconds(60)))  // only a hang fails this; a loaded run took most of ten seconds
        let run = try #require(try await f.client.execute(id: "wf-deep-010", input: ["url": .string("https://example.com")]).eventId)
        eventID.value = run
        #expect(await worker.arrived.wait(timeout: .seconds(15)))
        // The worker answers through the second node.
        let callback = "http://127.0.0.1:\(port)/api/workflows/callbacks/v1/\(run)"
        #expect(try await WorkflowExecutorTests.callback(callback, "{\"runId\":\"\(run)\",\"status\":\"succeeded\",\"result\":{\"node\":2}}") == 200)
        let timeout = Task {
            try await Task.sleep(nanoseconds: 20_000_000_000)
            finished.cancel()
        }
        let report = try await finished.value
        timeout.cancel()
        #expect(report?.status == "succeeded" && report?.result == .object(["node": .number(2)]))
        second.signal(SIGTERM)
        #expect(await second.wait(seconds: 15) == 0)
        await worker.stop()
        await f.stop()
    }
}

/// A value shared between a test and a task it started.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
