import Foundation

extension DatacoveWire.Endpoints {
    /// The workflow catalogue, execute, reports and their stream (the app's session), and what
    /// the tenant's worker calls: a run's callback and the signed links to its files.
    public enum Workflows {
        static let mount = DatacoveWire.Endpoints.mount

        static func endpoint<Body, Reply>(
            _ method: RequestMethod, _ path: String, _ credential: Credential = .session, id: String, _ summary: String
        ) -> Endpoint<Body, Reply> {
            Endpoint(method, mount + path, credential: credential, envelope: .datacove, id: id, summary: summary)
        }

        /// `/:pageNo/:pageSize` and `/:id` share their first segment, so one parameter name.
        public static let catalogue: Endpoint<NoBody, DatacoveWire.Page<DatacoveWire.Workflow>> =
            endpoint(.GET, "/workflows/v1/:id/:pageSize", id: "listWorkflows", "A page of the catalogue (`id` is the page number)")
        public static let workflow: Endpoint<NoBody, DatacoveWire.Workflow> =
            endpoint(.GET, "/workflows/v1/:id", id: "getWorkflow", "One workflow, with its inputs")
        public static let execute: Endpoint<DatacoveWire.ExecuteRequest, DatacoveWire.ExecuteResponse> =
            endpoint(.POST, "/workflows/v1/execute", id: "executeWorkflow", "Run a workflow, paid with credits (JSON, or multipart with files)")
        public static let history: Endpoint<NoBody, DatacoveWire.Page<DatacoveWire.Report>> =
            endpoint(.GET, "/workflows/reports/v1/history/:page/:limit", id: "reportHistory", "The account's runs, newest first")
        public static let stream: Endpoint<NoBody, RawBytes> =
            endpoint(.GET, "/workflows/reports/v1/stream", id: "streamReports", "Server-sent events: each report as it changes (replay with Last-Event-ID)")
        public static let report: Endpoint<NoBody, DatacoveWire.Report> =
            endpoint(.GET, "/workflows/reports/v1/:eventId", id: "getReport", "One run's report")
        public static let workerCallback: Endpoint<RawBytes, RawBytes> =
            endpoint(.POST, "/workflows/callbacks/v1/:runId", .workerSignature, id: "workerCallback", "The tenant's worker answers a webhook run")
        public static let workerFile: Endpoint<NoBody, RawBytes> =
            endpoint(.GET, "/workflows/files/v1/:runId/:index", .signedLink, id: "workerFile", "An uploaded file of a run, for the worker")

        /// Every endpoint under `/api/workflows`.
        public static var all: [EndpointDescription] {
            [
                catalogue.described, workflow.described, execute.described, history.described, stream.described, report.described,
                workerCallback.described, workerFile.described,
            ]
        }
    }
}
