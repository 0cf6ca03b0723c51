import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseDatabase
import GatehouseWiring
import GatehouseTesting
@testable import GatehouseWorkflowsEngine
import GatehouseFormats
import GatehouseRules

/// An executor whose answers the test sets per attempt; a run can be held until released.
final class ScriptedExecutor: WorkflowExecutor, @unchecked Sendable {
    let kind = "scripted"
    private let lock = NSLock()
    private var script: [ExecutorOutcome] = []
    private(set) var invocations: [RunInvocation] = []
    /// When set, each attempt waits for it before answering.
    var hold: Latch?
    let started = Latch()

    func validate(configuration: [String: JSONValue]) throws(WorkflowError) {}

    func answer(_ outcomes: ExecutorOutcome...) { lock.withLock { script += outcomes } }

    func execute(_ run: RunInvocation) async -> ExecutorOutcome {
        let hold = lock.withLock { () -> Latch? in
            invocations.append(run)
            return self.hold
        }
        started.signal()
        // A held attempt lets go when the runner gives up on it (its deadline passed).
        if let hold { await withTaskCancellationHandler { await hold.wait() } onCancel: { hold.signal() } }
        return lock.withLock { script.isEmpty ? .succeeded(.object(["echo": .object(run.input)])) : script.removeFirst() }
    }

    var count: Int { lock.withLock { invocations.count } }
}

/// A workflows engine billed by the real commerce engine, over a fresh database with one
/// tenant, one account with credits, and a manual clock.
final class WorkflowsHarness: @unchecked Sendable {
    let store: TestDatabase
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let commerce: CommerceEngine
    let engine: WorkflowsEngine
    let runner: WorkflowRunner
    let executor = ScriptedExecutor()
    let tenantID: String
    let accountID = "acct-1"
    let files: URL
    /// Counts the engines' transactions, when the test asked for it.
    let counting: CountingDatabase?

    init(
        _ kind: TestDatabaseKind, credits: Int = 100, countingTransactions: Bool = false,
        configure: (inout WorkflowSettings) -> Void = { _ in }
    ) async throws {
        let clock = self.clock
        store = try await TestDatabase.migrated(kind, EngineMigrations.all, clock: clock)
        counting = countingTransactions ? CountingDatabase(store.database) : nil
        let environment = Environment.test(database: counting ?? store.database, clock: clock)
        tenantID = try await TenantDirectory(environment: environment).createTenant(name: "Acme").id
        commerce = CommerceEngine(environment: environment)
        files = FileManager.default.temporaryDirectory.appendingPathComponent("wf-\(UUID().uuidString)")
        var settings = WorkflowSettings(filesDirectory: files)
        configure(&settings)
        engine = WorkflowsEngine(environment: environment, settings: settings, billing: commerce, executors: [executor])
        runner = WorkflowRunner(engine: engine)
        if credits > 0 { _ = try await commerce.grantCredits(tenantID: tenantID, accountID: accountID, credits: credits) }
    }

    func close() {
        store.close()
        try? FileManager.default.removeItem(at: files)
    }

    func balance(_ account: String? = nil) async throws -> Int {
        try await commerce.wallet(tenantID: tenantID, accountID: account ?? accountID)["WALLET"] ?? 0
    }

    static func definition(
        _ id: String = "wf-sec-001", credits: Int = 5, response: WorkflowDefinition.ResponseKind = .event, inputs: [WorkflowInput]? = nil,
        timeout: Int = 600
    ) -> WorkflowDefinition {
        WorkflowDefinition(
            id: id, name: "Security scan", description: "Checks a website", category: "security", credits: credits, response: response,
            executor: .init(kind: "scripted"),
            inputs: inputs ?? [WorkflowInput(key: "url", label: "Website address", type: "url", validation: .init(required: true))],
            timeoutSeconds: timeout)
    }

    @discardableResult
    func save(_ definition: WorkflowDefinition = definition()) async throws -> WorkflowDefinition {
        try await engine.saveDefinition(tenantID: tenantID, definition)
    }

    func execute(
        _ id: String = "wf-sec-001", input: [String: JSONValue] = ["url": "https://example.com"], account: String? = nil, key: String? = nil,
        files: [UploadedFile] = []
    ) async throws -> ExecuteOutcome {
        try await engine.execute(ExecuteCommand(
            tenantID: tenantID, accountID: account ?? accountID, workflowID: id, input: input, files: files, idempotencyKey: key))
    }

    /// A temporary file with `bytes`, as the transport would have left it.
    func upload(_ key: String, _ filename: String, _ bytes: [UInt8]) throws -> UploadedFile {
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let url = files.appendingPathComponent("upload-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return UploadedFile(key: key, filename: filename, url: url)
    }
}

extension JSONValue: @retroactive ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}
