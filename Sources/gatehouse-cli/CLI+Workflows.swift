import Foundation
import GatehouseClientCore
import GatehouseWire
import GatehouseWorkflows
import GatehouseFormats

/// `gatehouse-cli workflows …`: the catalogue, runs and reports of the signed-in account of
/// `auth verify` (through GatehouseWorkflows), and the operator's definitions and settings
/// (admin token).
extension CLI {
    static let workflowsUsage = """
        usage: gatehouse-cli workflows list [--search TEXT] [--category C] [--featured true|false] [--page N] [--size N]
               gatehouse-cli workflows show ID
               gatehouse-cli workflows run ID [KEY=VALUE …] [KEY=@FILE …] [--no-wait true]
               gatehouse-cli workflows report EVENT_ID [--wait true]
               gatehouse-cli workflows history [PAGE] [LIMIT]
        operator (admin token):
               gatehouse-cli workflows definitions | define FILE.json | remove ID
               gatehouse-cli workflows settings [--worker-url URL] [--worker-secret S] [--openai-base-url URL]
                                                [--openai-api-key KEY] [--openai-model M] [--max-concurrent N]
               gatehouse-cli workflows grant ACCOUNT_ID CREDITS
        option: --tenant ID (default: the development tenant)
        """

    static func workflows(
        _ words: [String], url: URL, admin: APIClient, credentials: [String: Any]?, logger: (@Sendable (String) -> Void)?
    ) async throws {
        let options = Options(Array(words.dropFirst()), known: [
            "tenant", "page", "size", "search", "category", "featured", "no-wait", "wait", "worker-url", "worker-secret", "openai-base-url",
            "openai-api-key", "openai-model", "max-concurrent",
        ], takes: ["list": 0, "show": 1, "report": 1, "history": 2, "definitions": 0, "define": 1, "remove": 1, "settings": 0, "grant": 2][words.first ?? ""])
        let arguments = options.positional
        if let tenant = options.value("tenant") ?? credentials?["tenantId"] as? String,
            try await workflowsOperator(words.first, arguments, options: options, admin: admin, tenant: tenant)
        {
            return
        }
        // The wiring an app writes: GatehouseWorkflows over GatehouseAuth's signed-in session.
        let auth = authClient(url: url, credentials: credentials, logger: logger).0
        let client = WorkflowsClient(baseURL: url.appendingPathComponent("api"), appVersion: "gatehouse-cli") { rejected in
            try await auth.session.validAccessToken(rejected: rejected)
        }
        switch words.first {
        case "list":
            let page = try await client.workflows(
                page: Int(options.value("page") ?? "1") ?? 1, pageSize: Int(options.value("size") ?? "20") ?? 20,
                search: options.value("search"), category: options.value("category"), featured: options.value("featured").map { $0 == "true" })
            for workflow in page.data {
                print("\(workflow.id)  \(workflow.name)  [\(workflow.category)] \(workflow.credits) credits\(workflow.gated ? ", gated" : "")\(workflow.featured ? ", featured" : "")")
            }
            print("page \(page.meta.page) of \(page.meta.totalPages), \(page.meta.total) in all")
        case "show":
            guard arguments.count == 1 else { fail(workflowsUsage) }
            try output(try await client.workflow(id: arguments[0]))
        case "run":
            guard let id = arguments.first else { fail(workflowsUsage) }
            var form = try await client.form(id: id)
            for pair in arguments.dropFirst() {
                guard let equals = pair.firstIndex(of: "=") else { fail("\(pair): inputs are KEY=VALUE or KEY=@FILE") }
                let key = String(pair[..<equals])
                let value = String(pair[pair.index(after: equals)...])
                if value.hasPrefix("@") {
                    form.setFiles(key, (form.files[key] ?? []) + [URL(fileURLWithPath: String(value.dropFirst()))])
                } else {
                    form.set(key, Self.inputValue(value, type: form.inputs.first { $0.key == key }?.type))
                }
            }
            let answer: DatacoveWire.ExecuteResponse
            do { answer = try await client.execute(form) } catch WorkflowsError.invalidForm(let problems) {
                fail(problems.sorted { $0.key < $1.key }.map(\.value).joined(separator: "\n"))
            }
            guard let eventId = answer.eventId, options.value("no-wait") != "true" else { return try output(answer) }
            print("queued \(eventId); waiting for its report…")
            try output(try await client.waitForReport(eventId: eventId))
        case "report":
            guard arguments.count == 1 else { fail(workflowsUsage) }
            try output(options.value("wait") == "true"
                ? try await client.waitForReport(eventId: arguments[0]) : try await client.report(eventId: arguments[0]))
        case "history":
            let page = try await client.history(page: Int(arguments.first ?? "1") ?? 1, limit: Int(arguments.dropFirst().first ?? "20") ?? 20)
            for report in page.data {
                print("\(report.eventId)  \(report.workflowId)  \(report.status)  \(report.createdAt)  \(report.creditsCharged - report.creditsRefunded) credits")
            }
            print("page \(page.meta.page) of \(page.meta.totalPages), \(page.meta.total) in all")
        default:
            fail(workflowsUsage)
        }
    }

    /// The operator's subcommands; false when `command` is not one of them.
    static func workflowsOperator(_ command: String?, _ arguments: [String], options: Options, admin: APIClient, tenant: String) async throws -> Bool {
        let tenantPath = ["tenantId": tenant]
        switch command {
        case "definitions":
            try output(try await admin.call(AdminWire.Endpoints.listWorkflowDefinitions, tenantPath))
        case "define":
            guard arguments.count == 1 else { fail(workflowsUsage) }
            let definition = try JSONDecoder().decode(AdminWire.WorkflowDefinition.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[0])))
            guard let id = definition.id else { fail("the definition needs an id") }
            try output(try await admin.call(AdminWire.Endpoints.putWorkflowDefinition, tenantPath.merging(["workflowId": id]) { $1 }, body: definition))
        case "remove":
            guard arguments.count == 1 else { fail(workflowsUsage) }
            try await admin.call(AdminWire.Endpoints.deleteWorkflowDefinition, tenantPath.merging(["workflowId": arguments[0]]) { $1 })
            print("removed")
        case "settings":
            func text(_ flag: String) -> Nullable<String>? { options.value(flag).map(Nullable.value) }
            let patch = AdminWire.WorkflowSettingsPatch(
                workerUrl: text("worker-url"), workerSecret: text("worker-secret"), openaiBaseUrl: text("openai-base-url"),
                openaiApiKey: text("openai-api-key"), openaiModel: text("openai-model"),
                maxConcurrentRuns: options.value("max-concurrent").flatMap { Int($0) })
            let changes = patch != AdminWire.WorkflowSettingsPatch()
            try output(changes
                ? try await admin.call(AdminWire.Endpoints.updateWorkflowSettings, tenantPath, body: patch)
                : try await admin.call(AdminWire.Endpoints.getWorkflowSettings, tenantPath))
        case "grant":
            guard arguments.count == 2, let credits = Int(arguments[1]) else { fail(workflowsUsage) }
            try output(try await admin.call(
                AdminWire.Endpoints.grantCredits, tenantPath.merging(["accountId": arguments[0]]) { $1 }, body: AdminWire.CreditGrant(credits: credits)))
        default:
            return false
        }
        return true
    }

    /// A command-line value as its input's type wants it.
    static func inputValue(_ text: String, type: String?) -> JSONValue {
        switch type {
        case "number": return Double(text).map(JSONValue.number) ?? .string(text)
        case "checkbox": return .bool(["true", "yes", "1", "on"].contains(text.lowercased()))
        default: return .string(text)
        }
    }
}
