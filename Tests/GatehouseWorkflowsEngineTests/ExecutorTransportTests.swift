import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseTesting
import Testing
@testable import GatehouseExecutors
import GatehouseWiring
@testable import GatehouseWorkflowsEngine
import GatehouseFormats

/// The `webhook` and `openai` executors over the real outbound client, against an upstream
/// that misbehaves: every run ends within its deadline with the executor's own outcome (a 401
/// with `WWW-Authenticate` fails at once, a silent or trickling endpoint is retried once the
/// deadline passes, an endless answer is cut at its limit), and no redirect is followed.
@Suite struct ExecutorTransportTests {
    static func invocation(kind: String, tenant: WorkflowTenantSettings, config: [String: JSONValue] = [:], seconds: TimeInterval = 2) -> RunInvocation {
        RunInvocation(
            runID: "evt_1", tenantID: "t", accountID: "a",
            workflow: WorkflowDefinition(id: "wf", name: "W", executor: .init(kind: kind, configuration: config)),
            input: ["text": .string("hello")], files: [], attempt: 1, deadline: Date().addingTimeInterval(seconds), tenant: tenant)
    }

    /// The outcome's kind and code, as one string to compare.
    static func summary(_ outcome: ExecutorOutcome) -> String {
        switch outcome {
        case .succeeded: "succeeded"
        case .failed(let code, _): "failed \(code)"
        case .retry(let code, _): "retry \(code)"
        case .awaitingCallback: "awaiting"
        }
    }

    @Test func theWorkerExecutorEndsEveryHostileCallWithItsOwnOutcome() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let executor = WebhookWorkflowExecutor(
            http: CurlHTTPClient(), clock: SystemClock(), publicURL: { URL(string: "http://gatehouse.test")! })
        let cases: [(String, String)] = [
            ("/unauthorized/basic", "failed WORKER_REFUSED"),
            ("/unauthorized/bearer", "failed WORKER_REFUSED"),
            ("/silent", "retry WORKER_UNREACHABLE"),
            ("/head-only", "retry WORKER_UNREACHABLE"),
            ("/trickle", "retry WORKER_UNREACHABLE"),
            ("/reset", "retry WORKER_UNREACHABLE"),
            ("/stream?bytes=50000000", "failed WORKER_ANSWER_TOO_LARGE"),
            ("/redirect?to=http://127.0.0.1:\(upstream.port)/allow", "failed WORKER_REFUSED"),
            ("/headers?count=400", "retry WORKER_UNREACHABLE"),
            ("/long-header?bytes=102400", "retry WORKER_UNREACHABLE"),
        ]
        for (path, expected) in cases {
            let tenant = WorkflowTenantSettings(workerURL: upstream.url(path), workerSecret: "worker-secret", maxConcurrentRuns: 1)
            let outcome = await executor.execute(Self.invocation(kind: "webhook", tenant: tenant))
            #expect(Self.summary(outcome) == expected, "\(path): \(outcome)")
        }
    }

    @Test func theModelExecutorEndsEveryHostileCallWithItsOwnOutcome() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let executor = OpenAIWorkflowExecutor(http: CurlHTTPClient())
        let cases: [(String, String)] = [
            ("/unauthorized/basic", "failed MODEL_REFUSED"),
            ("/unauthorized/bearer", "failed MODEL_REFUSED"),
            ("/silent", "retry MODEL_UNREACHABLE"),
            ("/trickle", "retry MODEL_UNREACHABLE"),
            ("/reset", "retry MODEL_UNREACHABLE"),
            ("/chunked?bytes=50000000", "failed MODEL_ANSWER_TOO_LARGE"),
            ("/redirect?to=http://127.0.0.1:\(upstream.port)/ok", "failed MODEL_REFUSED"),
        ]
        for (path, expected) in cases {
            let tenant = WorkflowTenantSettings(openAIBaseURL: upstream.url(path), openAIAPIKey: "sk-test", openAIModel: "m", maxConcurrentRuns: 1)
            let outcome = await executor.execute(Self.invocation(kind: "openai", tenant: tenant, config: ["prompt": .string("Say {{text}}")]))
            #expect(Self.summary(outcome) == expected, "\(path): \(outcome)")
        }
    }
}
