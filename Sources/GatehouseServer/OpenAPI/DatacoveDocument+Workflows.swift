import GatehouseWire
import GatehouseRules

/// The workflow catalogue, execute, reports and their stream, and the worker's routes.
extension DatacoveDocument {
    static var workflows: [Operation] {
        let workflow = DatacoveWire.Workflow(
            id: "wf-url-001", name: "Website check", description: "Checks a web address", category: "security", featured: true, credits: 0,
            responseType: "sync", gated: false, inputs: [DatacoveWire.WorkflowInput(key: "url", label: "Website address", type: "url", validation: .init(required: true))])
        var listed = workflow
        listed.inputs = nil
        let report = DatacoveWire.Report(
            eventId: "01a2b3c4-0000-7000-8000-00000000000a", workflowId: "wf-url-001", status: "succeeded", result: .object(["reachable": .bool(true)]),
            error: nil, creditsCharged: 0, creditsRefunded: 0, createdAt: at, startedAt: at, finishedAt: at)
        let page = DatacoveWire.PageMeta(page: 1, pageSize: 20, total: 1, totalPages: 1)
        let positive = Schema.integer(minimum: 1, maximum: 100)
        let endpoints = DatacoveWire.Endpoints.Workflows.self
        var catalogue = Operation(endpoints.catalogue.described, replies: [.ok(.ref("WorkflowPage"), .wire(DatacoveWire.Page(data: [listed], meta: page)))])
        catalogue.pathSchemas = ["id": .integer(minimum: 1, maximum: 1000), "pageSize": positive]
        catalogue.query = [
            Parameter(name: "search"), Parameter(name: "category"), Parameter(name: "featured", schema: .oneOf(["true", "false"])),
        ]
        var execute = Operation(endpoints.execute.described,
            body: .json(.ref("ExecuteRequest"), example: .wire(DatacoveWire.ExecuteRequest(id: "wf-url-001", input: ["url": .string("http://127.0.0.1/healthz")]))),
            replies: [.ok(.ref("ExecuteResponse"), .wire(DatacoveWire.ExecuteResponse(eventId: report.eventId, status: "succeeded", result: report.result, creditsCharged: 0)),
                links: [Link(name: "report", operationId: endpoints.report.id, parameters: ["eventId": "$response.body#/eventId"])])])
        execute.headers = [
            Parameter(name: "X-App-Version", schema: .string(pattern: "^[ -~]{1,64}$"), required: true),
            Parameter(name: "Idempotency-Key", description: "the same key answers the same run"),
        ]
        var stream = Operation(
            endpoints.stream.described,
            replies: [Reply(status: "200", description: "An endless stream of `report` events", content: Content(mediaType: "text/event-stream", schema: .string))],
            notes: "Not fuzzed: the stream does not end.")
        stream.query = [Parameter(name: "lastEventId")]
        var history = Operation(endpoints.history.described, replies: [.ok(.ref("ReportPage"), .wire(DatacoveWire.Page(data: [report], meta: page)))])
        history.pathSchemas = ["page": .integer(minimum: 1, maximum: 1000), "limit": positive]
        var workerFile = Operation(
            endpoints.workerFile.described,
            query: [Parameter(name: "expires", required: true), Parameter(name: "signature", required: true)],
            replies: [Reply(status: "200", description: "The file", content: Content(mediaType: "application/octet-stream", schema: .string))],
            notes: "A signed link the run's webhook carries; not fuzzed.")
        workerFile.pathSchemas = ["index": .integer(minimum: 0)]
        return [
            catalogue,
            Operation(endpoints.workflow.described, replies: [.ok(.ref("Workflow"), .wire(workflow))]),
            execute,
            history,
            stream,
            Operation(endpoints.report.described, replies: [.ok(.ref("Report"), .wire(report))]),
            Operation(
                endpoints.workerCallback.described, body: .json(.ref("WorkerAnswer")), replies: [.ok(.ref("CallbackAnswer"))],
                notes: "Signed with the tenant's worker secret (`X-Gatehouse-Timestamp`, `X-Gatehouse-Signature`); not fuzzed."),
            workerFile,
        ]
    }
}
