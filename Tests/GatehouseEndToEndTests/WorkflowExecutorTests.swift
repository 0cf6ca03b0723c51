import Foundation
import GatehouseCrypto
import GatehouseHTTP
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import GatehouseWorkflows
import Testing
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The webhook and OpenAI-compatible executors against real HTTP servers started by the test,
/// and the report stream that tells the SDK.
@Suite struct WorkflowExecutorTests {
    static let secret = "worker-secret-0123456789"

    static func webhook(_ id: String, credits: Int = 2, timeout: Int = 60) -> AdminWire.WorkflowDefinition {
        AdminWire.WorkflowDefinition(
            id: id, name: "Deep scan \(id)", credits: credits, responseType: "event", timeoutSeconds: timeout,
            executor: .init(kind: "webhook", config: ["path": .string("/runs")]),
            inputs: [.init(key: "url", label: "Website address", type: "url", validation: .init(required: true))])
    }

    /// Signs a callback as the worker would.
    static func callback(_ url: String, _ body: String) async throws -> Int {
        let timestamp = String(Int64(Date().timeIntervalSince1970))
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(timestamp, forHTTPHeaderField: "X-Gatehouse-Timestamp")
        let signature = Base64.encode(HMAC.sha256(key: Array(secret.utf8), message: Array("\(timestamp).\(body)".utf8)))
        request.setValue(signature, forHTTPHeaderField: "X-Gatehouse-Signature")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as! HTTPURLResponse).statusCode
    }

    @Test(arguments: TestDatabaseKind.available)
    func aLongRunThroughAWorkerArrivesByTheStreamAndByPolling(_ kind: TestDatabaseKind) async throws {
        let f = try await WorkflowsFixture.start(kind)
        let worker = try StandInServer { _, _ in Response(status: 202) }
        _ = try await f.settings(.init(workerUrl: .value(worker.url.absoluteString), workerSecret: .value(Self.secret)))
        try await f.define(Self.webhook("wf-deep-001"))
        try await f.grant(10)
        let run = try await f.client.execute(id: "wf-deep-001", input: ["url": .string("https://example.com")])
        let eventID = try #require(run.eventId)
        let waiting = Task { try await f.client.waitForReport(eventId: eventID, timeout: 30) }
        #expect(await worker.arrived.wait(timeout: .seconds(60)))  // only a hang fails this
        let sent = try #require(worker.requests.first)
        // Signed like the delivery webhook, over the exact bytes.
        let timestamp = try #require(sent.headers["X-Gatehouse-Timestamp"])
        let expected = Base64.encode(HMAC.sha256(key: Array(Self.secret.utf8), message: Array(timestamp.utf8) + [UInt8(ascii: ".")] + Array(sent.body)))
        #expect(sent.headers["X-Gatehouse-Signature"] == expected)
        #expect(sent.headers["X-Gatehouse-Run-Id"] == eventID && sent.path == "/runs")
        let payload = try #require(try JSONSerialization.jsonObject(with: sent.body) as? [String: Any])
        #expect((payload["input"] as? [String: String]) == ["url": "https://example.com"])
        let callbackURL = try #require(payload["callbackUrl"] as? String)
        #expect(callbackURL == f.live.credentials.baseURL + "/api/workflows/callbacks/v1/\(eventID)")

        #expect(try await Self.callback(callbackURL.replacingOccurrences(of: eventID, with: "evt_other"), #"{"status":"succeeded","result":{}}"#) == 401)
        // A signed answer naming another run is refused: callbacks cannot be replayed across runs.
        #expect(try await Self.callback(callbackURL, #"{"runId":"evt_other","status":"failed","error":{"code":"X","message":"x"}}"#) == 400)
        #expect(try await Self.callback(callbackURL, "{\"runId\":\"\(eventID)\",\"status\":\"succeeded\",\"result\":{\"grade\":\"A\"}}") == 200)
        let report = try await waiting.value
        #expect(report.status == "succeeded" && report.result == .object(["grade": .string("A")]) && report.creditsCharged == 2)
        #expect(try await f.wallet() == 8)
        // Polling sees the same.
        #expect(try await f.client.report(eventId: eventID) == report)
        await worker.stop()
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aWorkers4xxFailsAtOnceAnd5xxIsRetried(_ kind: TestDatabaseKind) async throws {
        let f = try await WorkflowsFixture.start(kind)
        let worker = try StandInServer { request, count in
            let body = String(decoding: request.body, as: UTF8.self)
            if body.contains("refuse.example") { return .text("no", status: 422) }
            return count < 3 ? .text("busy", status: 503) : Response.json(raw: Data(#"{"status":"succeeded","result":{"ok":true}}"#.utf8))
        }
        _ = try await f.settings(.init(workerUrl: .value(worker.url.absoluteString), workerSecret: .value(Self.secret)))
        try await f.define(Self.webhook("wf-deep-002"))
        try await f.grant(10)
        let refused = try #require(try await f.client.execute(id: "wf-deep-002", input: ["url": .string("https://refuse.example")]).eventId)
        let failed = try await f.client.waitForReport(eventId: refused, timeout: 20)
        #expect(failed.status == "failed" && failed.error?.code == "WORKER_REFUSED" && failed.creditsRefunded == 2)
        #expect(try await f.wallet() == 10)
        let retried = try #require(try await f.client.execute(id: "wf-deep-002", input: ["url": .string("https://ok.example")]).eventId)
        let done = try await f.client.waitForReport(eventId: retried, timeout: 30)
        #expect(done.status == "succeeded" && done.result == .object(["ok": .bool(true)]))
        #expect(worker.requests.count == 3)  // one refusal, then 503 and success
        #expect(try await f.wallet() == 8)
        await worker.stop()
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func theOpenAIExecutorFillsThePromptAndReportsTheAnswer(_ kind: TestDatabaseKind) async throws {
        let f = try await WorkflowsFixture.start(kind)
        let model = try StandInServer { request, _ in
            guard request.headers["Authorization"] == "Bearer sk-local-test" else { return .text("no key", status: 401) }
            let body = (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]) ?? [:]
            let prompt = ((body["messages"] as? [[String: Any]])?.last?["content"] as? String) ?? ""
            let answer: [String: Any] = [
                "model": body["model"] ?? "", "choices": [["index": 0, "message": ["role": "assistant", "content": "Summary of: \(prompt)"], "finish_reason": "stop"]],
                "usage": ["prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12],
            ]
            return Response.json(raw: try! JSONSerialization.data(withJSONObject: answer))
        }
        let settings = try await f.settings(.init(openaiBaseUrl: .value(model.url.absoluteString + "/v1"), openaiApiKey: .value("sk-local-test"), openaiModel: .value("llama-3")))
        #expect(settings.hasOpenaiApiKey && settings.openaiModel == "llama-3")
        let listed = try await f.admin.send("GET", "/admin/v1/tenants/\(f.tenant)/workflow-settings", as: AdminWire.WorkflowSettings.self)
        #expect(listed == settings)
        #expect(!String(decoding: try JSONEncoder().encode(listed), as: UTF8.self).contains("sk-local-test"))
        try await f.define(AdminWire.WorkflowDefinition(
            id: "wf-ai-001", name: "Summarise", responseType: "sync", timeoutSeconds: 30,
            executor: .init(kind: "openai", config: ["prompt": .string("Summarise {{topic}} in {{words}} words")]),
            inputs: [.init(key: "topic", label: "Topic", type: "text", validation: .init(required: true)),
                     .init(key: "words", label: "Words", type: "number", validation: .init(min: 1, max: 100))]))
        let answer = try await f.client.execute(id: "wf-ai-001", input: ["topic": .string("tides"), "words": .number(20)])
        #expect(answer.status == "succeeded")
        let result = try #require(answer.result?.object)
        #expect(result["text"] == .string("Summary of: Summarise tides in 20 words") && result["model"] == .string("llama-3"))
        #expect(result["usage"]?.object?["total_tokens"] == .number(12))
        await model.stop()
        await f.stop()
    }

    @Test func anAccountHoldsAtMostEightStreams() async throws {
        let f = try await WorkflowsFixture.start(.sqlite)
        var holders: [Task<Void, any Error>] = []
        for _ in 0..<8 {
            let ready = Latch()
            holders.append(Task {
                for try await update in f.client.reportUpdates() where update.report.status == "ready" { ready.signal() }
            })
            // Only a hang fails this: a loaded two-core run has taken most of ten seconds to open one.
            #expect(await ready.wait(timeout: .seconds(60)))
        }
        let (status, data) = try await f.raw("GET", "workflows/reports/v1/stream")
        #expect(status == 429)
        #expect(try JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: data).error.code == "TOO_MANY_STREAMS")
        for holder in holders { holder.cancel() }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aStreamThatReconnectsWithLastEventIDMissesNothing(_ kind: TestDatabaseKind) async throws {
        let f = try await WorkflowsFixture.start(kind)
        let worker = try StandInServer { _, _ in Response(status: 202) }
        _ = try await f.settings(.init(workerUrl: .value(worker.url.absoluteString), workerSecret: .value(Self.secret)))
        try await f.define(Self.webhook("wf-deep-003", credits: 0))
        // A first stream sees one run queued, then goes away.
        let ready = Latch()
        let firstStream = Task { () -> ReportUpdate? in
            var iterator = f.client.reportUpdates().makeAsyncIterator()
            guard let marker = try await iterator.next(), marker.report.status == "ready" else { return nil }
            ready.signal()
            return try await iterator.next()
        }
        #expect(await ready.wait(timeout: .seconds(60)))  // only a hang fails this; a loaded run took most of ten seconds
        let first = try #require(try await f.client.execute(id: "wf-deep-003", input: ["url": .string("https://a.example")]).eventId)
        let seen = try #require(try await firstStream.value)
        // The event is the run's queueing; its report is the run as it stands when read, which
        // the server's own runner may already have claimed.
        #expect(seen.report.eventId == first && ["queued", "running"].contains(seen.report.status))
        // While nobody listens: the run starts, a second one is queued, the first finishes.
        let second = try #require(try await f.client.execute(id: "wf-deep-003", input: ["url": .string("https://b.example")]).eventId)
        try await f.live.app.runs.drain()
        #expect(try await f.live.app.workflows.complete(runID: first, tenantID: f.tenant, .succeeded(.object(["n": .number(1)]))))
        // Resuming after what it saw, the stream replays the rest in order, each once.
        var resumed = f.client.reportUpdates(resumingAfter: seen.eventID).makeAsyncIterator()
        var replayed: [ReportUpdate] = []
        while replayed.count < 4, let update = try await resumed.next() { replayed.append(update) }
        let base = try #require(Int(seen.eventID))
        #expect(replayed.map(\.eventID) == (1...4).map { String(base + $0) })
        let changes = replayed.map { "\($0.report.eventId == first ? "first" : "second")" }
        #expect(changes.filter { $0 == "first" }.count == 2 && changes.filter { $0 == "second" }.count == 2)
        #expect(replayed.last?.report.eventId == first && replayed.last?.report.status == "succeeded")
        #expect(try await f.client.report(eventId: second).status == "running")
        await worker.stop()
        await f.stop()
    }
}
