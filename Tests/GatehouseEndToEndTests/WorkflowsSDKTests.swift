import Foundation
import GatehouseClientCore
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import GatehouseWorkflows
import Testing
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `GatehouseWorkflows` against the live server: the catalogue, forms, executes, credits and errors.
@Suite struct WorkflowsSDKTests {
    static func echo(_ id: String, name: String, category: String = "general", credits: Int = 0, featured: Bool? = nil) -> AdminWire.WorkflowDefinition {
        AdminWire.WorkflowDefinition(
            id: id, name: name, description: "Checks \(name.lowercased())", category: category, featured: featured, credits: credits,
            responseType: "sync", timeoutSeconds: 20, executor: .init(kind: "url-check"),
            inputs: [.init(key: "url", label: "Website address", type: "url", validation: .init(required: true))])
    }

    @Test(arguments: TestDatabaseKind.available)
    func theCataloguePagesSearchesAndFilters(_ kind: TestDatabaseKind) async throws {
        let f = try await WorkflowsFixture.start(kind)
        for (index, name) in ["Café audit", "Privacy review", "Cookie scan"].enumerated() {
            try await f.define(Self.echo("wf-cat-00\(index + 1)", name: name, category: index == 1 ? "privacy" : "security"))
        }
        let all = try await f.client.workflows(page: 1, pageSize: 2)
        #expect(all.meta == DatacoveWire.PageMeta(page: 1, pageSize: 2, total: 5, totalPages: 3))
        #expect(all.data.first?.id == "wf-url-001")  // the featured one first
        #expect(all.data.allSatisfy { $0.inputs == nil })
        let last = try await f.client.workflows(page: 3, pageSize: 2)
        #expect(last.data.count == 1)
        #expect(try await f.client.workflows(search: "CAFE").data.map(\.id) == ["wf-cat-001"])
        #expect(try await f.client.workflows(category: "privacy").data.map(\.id) == ["wf-cat-002"])
        #expect(try await f.client.workflows(featured: true).data.map(\.id) == ["wf-url-001"])
        let one = try await f.client.workflow(id: "wf-doc-001")
        #expect(one.inputs?.first?.fileOptions == .init(accept: ".pdf,.docx,.txt", maxSizeMb: 10, multiple: false))

        for path in ["workflows/v1/0/10", "workflows/v1/1/0", "workflows/v1/1/500", "workflows/v1/x/10", "workflows/v1/1/99999999999999999999",
                     "workflows/v1/1/10?featured=maybe"] {
            let (status, data) = try await f.raw("GET", path)
            #expect(status == 400, "\(path)")
            let envelope = try JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: data)
            #expect(envelope.error.code == "VALIDATION_FAILED" && envelope.statusCode == 400 && envelope.path == "/api/" + path.split(separator: "?")[0])
        }
        await #expect(throws: WorkflowsError.api(status: 404, code: .notFound, message: "No workflow wf-none.", balance: nil)) {
            try await f.client.workflow(id: "wf-none")
        }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aSyncRunAnswersItsResultAndAnEventRunItsEventID(_ kind: TestDatabaseKind) async throws {
        let f = try await WorkflowsFixture.start(kind)
        var form = try await f.client.form(id: "wf-url-001")
        #expect(form.problems() == ["url": "Website address is required"])
        form.set("url", .string("ftp://example.com"))
        await #expect(throws: WorkflowsError.invalidForm(["url": "Website address must be a web address starting with http:// or https://"])) {
            try await f.client.execute(form)
        }
        form.set("url", .string(f.live.credentials.baseURL + "/healthz"))
        let answer = try await f.client.execute(form)
        #expect(answer.eventId == nil && answer.status == "succeeded" && answer.creditsCharged == 0)
        let result = try #require(answer.result?.object)
        #expect(result["valid"] == .bool(true) && result["reachable"] == .bool(true) && result["status"] == .number(200))

        try await f.grant(3)
        let text = try WorkflowsFixture.file("notes.txt", Data("four words in here\nand three more".utf8))
        var digest = try await f.client.form(id: "wf-doc-001")
        digest.setFiles("document", [text])
        let queued = try await f.client.execute(digest)
        let eventID = try #require(queued.eventId)
        #expect(queued.result == nil && queued.creditsCharged == 1)
        let report = try await f.client.waitForReport(eventId: eventID, timeout: 30)
        #expect(report.status == "succeeded")
        let file = try #require(report.result?.object?["files"]?.array?.first?.object)
        #expect(file["words"] == .number(7) && file["filename"] == .string("notes.txt") && file["type"] == .string(".txt"))
        #expect(try await f.wallet() == 2)
        let history = try await f.client.history(page: 1, limit: 10)
        #expect(history.data.map(\.workflowId) == ["wf-doc-001", "wf-url-001"])
        #expect(history.meta.total == 2)
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func fileErrorsNameTheLabelAndTheLimits(_ kind: TestDatabaseKind) async throws {
        let f = try await WorkflowsFixture.start(kind)
        try await f.grant(5)
        let limit = "Document must be a .pdf, .docx or .txt file of at most 10 MB"
        let big = try WorkflowsFixture.file("big.txt", Data(repeating: UInt8(ascii: "a"), count: 10 * 1_048_576 + 1))
        let exe = try WorkflowsFixture.file("tool.exe", Data("just text".utf8))
        let fakePDF = try WorkflowsFixture.file("report.pdf", Data("this is not a PDF at all".utf8))
        var form = try await f.client.form(id: "wf-doc-001")
        for file in [big, exe] {
            form.setFiles("document", [file])
            #expect(form.problems() == ["document": limit])  // the SDK says it first, in the server's words
            await #expect(throws: WorkflowsError.api(status: 400, code: .fileInvalid, message: limit, balance: nil)) {
                try await f.client.execute(id: "wf-doc-001", input: [:], files: ["document": [file]])
            }
        }
        form.setFiles("document", [fakePDF])
        #expect(form.problems().isEmpty)  // only the server reads content
        await #expect(throws: WorkflowsError.api(status: 400, code: .fileInvalid, message: limit, balance: nil)) {
            try await f.client.execute(form)
        }
        #expect(try await f.wallet() == 5)
        // An upload without a token is refused on its head: nothing of it reaches the disk.
        var anonymous = URLRequest(url: URL(string: f.live.credentials.baseURL + "/api/workflows/v1/execute")!)
        anonymous.httpMethod = "POST"
        anonymous.setValue("multipart/form-data; boundary=probe-boundary", forHTTPHeaderField: "Content-Type")
        anonymous.httpBody = Data("--probe-boundary\r\nContent-Disposition: form-data; name=\"document\"; filename=\"a.txt\"\r\n\r\n\(String(repeating: "z", count: 200_000))\r\n--probe-boundary--\r\n".utf8)
        for (token, version, status, code) in [
            (nil, "1.0", 401, "TOKEN_INVALID"), ("Bearer not-a-token", "1.0", 401, "TOKEN_INVALID"),
            ("Bearer \(try await f.auth.session.validAccessToken())", nil, 400, "APP_VERSION_REQUIRED"),
        ] as [(String?, String?, Int, String)] {
            var request = anonymous
            request.setValue(token, forHTTPHeaderField: "Authorization")
            request.setValue(version, forHTTPHeaderField: "X-App-Version")
            let (refusal, refused) = try await URLSessionTransport().send(request)
            #expect(refused.statusCode == status, "\(String(decoding: refusal, as: UTF8.self))")
            #expect(try JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: refusal).error.code == code)
        }
        let uploads = URL(fileURLWithPath: f.live.dataDir).appendingPathComponent("workflow-files/.uploads")
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads.path).isEmpty, "refused uploads are removed")
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func creditsEntitlementIdempotencyAndTheAppVersion(_ kind: TestDatabaseKind) async throws {
        let f = try await WorkflowsFixture.start(kind)
        try await f.define(Self.echo("wf-paid-001", name: "Paid check", credits: 4))
        let url = JSONValue.string(f.live.credentials.baseURL + "/healthz")
        await #expect(throws: WorkflowsError.api(
            status: 402, code: .insufficientCredits, message: "This workflow costs 4 credits and the wallet holds 0.", balance: 0)) {
            try await f.client.execute(id: "wf-paid-001", input: ["url": url])
        }
        try await f.grant(10)
        let first = try await f.client.execute(id: "wf-paid-001", input: ["url": url], idempotencyKey: "key-1")
        let again = try await f.client.execute(id: "wf-paid-001", input: ["url": url], idempotencyKey: "key-1")
        #expect(first == again)
        #expect(try await f.wallet() == 6)
        await #expect(throws: WorkflowsError.api(
            status: 422, code: .idempotencyKeyReused, message: "This Idempotency-Key was used with a different request.", balance: nil)) {
            try await f.client.execute(id: "wf-paid-001", input: ["url": .string("https://other.example")], idempotencyKey: "key-1")
        }
        // Concurrent executes on a small wallet: 6 credits, 4 each, one goes through.
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<5 { group.addTask { (try? await f.client.execute(id: "wf-paid-001", input: ["url": url])) != nil } }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(outcomes == 1)
        #expect(try await f.wallet() == 2)

        // A plan gates it: 403, nothing charged; the seed's words ("Your trial has ended …") are for a
        // trial that ran out, and this account never started one.
        let plan = try await DatacoveClient(f.live).call(
            "POST", "tenants/v1/\(f.tenant)/service-entitlement-products",
            ["displayName": "Pro", "interval": "monthly", "platformProductIds": ["apple": "com.example.pro"], "gatedWorkflowId": "wf-url-001"],
            token: f.live.credentials.adminToken)
        #expect(plan.status == 201)
        let (status, data) = try await f.raw(
            "POST", "workflows/v1/execute", body: Data(#"{"id":"wf-url-001","input":{"url":"https://example.com"}}"#.utf8),
            headers: ["X-App-Version": "3.1.0"])
        #expect(status == 403)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["statusCode"] as? Int == 403 && object["path"] as? String == "/api/workflows/v1/execute")
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "ENTITLEMENT_INACTIVE")
        #expect(error["message"] as? String == "No trial or active subscription covers this service: start the trial or subscribe.")
        #expect(try await f.client.workflow(id: "wf-url-001").gated)

        let (missing, body) = try await f.raw("POST", "workflows/v1/execute", body: Data(#"{"id":"wf-paid-001","input":{}}"#.utf8))
        #expect(missing == 400)
        #expect(try JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: body).error.code == "APP_VERSION_REQUIRED")
        for hostile in [#"{"id":"wf-paid-001","input":[]}"#, #"{"id":5}"#, #"{"id":"wf-paid-001","extra":1}"#, #"[1]"#, #"{"id":"wf-paid-001","input":{"url":"x"}"#] {
            let (code, _) = try await f.raw("POST", "workflows/v1/execute", body: Data(hostile.utf8), headers: ["X-App-Version": "1"])
            #expect(code == 400, "\(hostile)")
        }
        #expect(try await f.wallet() == 2)
        // Multipart that no form sends: a boundary past RFC 2046's 70 characters, `id` twice.
        let token = try await f.auth.session.validAccessToken()
        for (boundary, parts, code) in [
            (String(repeating: "B", count: 71), [("id", "wf-paid-001")], "VALIDATION_FAILED"),
            ("probe-boundary", [("id", "wf-paid-001"), ("id", "wf-url-001")], "VALIDATION_FAILED"),
        ] {
            var request = URLRequest(url: URL(string: f.live.credentials.baseURL + "/api/workflows/v1/execute")!)
            request.httpMethod = "POST"
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.setValue("1.0", forHTTPHeaderField: "X-App-Version")
            request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
            let body = parts.map { "--\(boundary)\r\nContent-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)\r\n" }.joined()
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"input\"\r\n\r\n{\"url\":\"https://example.com\"}\r\n--\(boundary)--\r\n"
            request.httpBody = Data(body.utf8)
            let (data, response) = try await URLSessionTransport().send(request)
            #expect(response.statusCode == 400, "\(String(decoding: data, as: UTF8.self))")
            #expect(try JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: data).error.code == code)
        }
        #expect(try await f.wallet() == 2)
        await f.stop()
    }
}
